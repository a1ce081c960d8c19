// cards.reviewMetrics: the learner's recent reviews and retention, for the dashboard.
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';

export async function reviewMetrics({ ctx }: HandlerArgs) {
  const answer = await asUser(ctx).metrics.reviewMetrics({ days: 0 });
  // The service answers a negative retention when there is none yet.
  return { ...answer, retention: answer.retention < 0 ? null : answer.retention };
}
