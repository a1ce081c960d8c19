// ProgressMetrics: the learner's cards by state, and today's due (within their presets' daily limits, as the due
// list offers them) and reviewed counts against the daily goal, in the learner's own day.
import type { CallContext } from '@engram/kit/grpc/server';
import type * as Proto from '@engram/proto/cards/v1/metrics';
import type { Stores } from '../db.js';
import { learnerDay } from '../learner/learner-day.js';
import { dailyLimits } from '../presets/daily-limits.js';
import { PROGRESS } from '../review/metrics-sql.js';

export function progressMetrics(stores: Stores) {
  return async (_request: Proto.ProgressMetricsRequest, ctx: CallContext): Promise<Proto.ProgressMetricsResponse> => {
    const ownerId = ctx.caller.userId;
    const { settings, start, end } = await learnerDay(stores, ownerId);
    const limits = await dailyLimits(stores, ownerId, start);
    const { rows } = await stores.pool.query(PROGRESS, [ownerId, end, start, ...limits.values]);
    const row = rows[0];
    return {
      total: row.total,
      archived: row.archived,
      new: row.new,
      learning: row.learning,
      review: row.review,
      relearning: row.relearning,
      dueToday: row.due_today,
      reviewedToday: row.reviewed_today,
      dailyGoal: settings.dailyGoal,
    };
  };
}
