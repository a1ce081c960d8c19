// cards.streak: the learner's run of study days, for the dashboard.
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';

export async function streak({ ctx }: HandlerArgs) {
  return asUser(ctx).metrics.streak({});
}
