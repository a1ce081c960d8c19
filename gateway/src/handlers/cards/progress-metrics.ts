// cards.progressMetrics: the learner's cards by state and what is due, for the dashboard.
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';

export async function progressMetrics({ ctx }: HandlerArgs) {
  return asUser(ctx).metrics.progressMetrics({});
}
