// Streak: the learner's current and longest run of study days, in the learner's own days.
import type { CallContext } from '@engram/kit/grpc/server';
import type * as Proto from '@engram/proto/cards/v1/metrics';
import type { Stores } from '../db.js';
import { learnerDay } from '../learner/learner-day.js';
import { STREAK } from '../review/metrics-sql.js';

export function streak(stores: Stores) {
  return async (_request: Proto.StreakRequest, ctx: CallContext): Promise<Proto.StreakResponse> => {
    const ownerId = ctx.caller.userId;
    const { today } = await learnerDay(stores, ownerId);
    const { rows } = await stores.pool.query(STREAK, [ownerId, today]);
    return { current: rows[0].current, longest: rows[0].longest, reviewedToday: rows[0].reviewed_today };
  };
}
