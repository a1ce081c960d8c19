// cards.reviewMetrics: the learner's recent reviews and retention, for the dashboard; their whole history by
// month, and a chosen year by day.
import { reviewMetricsInput } from '@engram/contracts/cards';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';

export { reviewMetricsInput };

export async function reviewMetrics({ ctx, input }: HandlerArgs<z.infer<typeof reviewMetricsInput>>) {
  const answer = await asUser(ctx).metrics.reviewMetrics({ days: 0, year: input?.year ?? 0 });
  // The service answers a negative retention when there is none yet.
  return { ...answer, retention: answer.retention < 0 ? null : answer.retention };
}
