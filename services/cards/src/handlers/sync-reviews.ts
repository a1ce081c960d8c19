// SyncReviews: the reviews a device did offline, each applied once at its time (review/sync-reviews.ts).
import { syncReviewsInput } from '@engram/contracts/offline';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { SyncReviewsRequest, SyncReviewsResponse } from '@engram/proto/cards/v1/review';
import type { Stores } from '../db.js';
import { syncReviews as applySynced } from '../review/sync-reviews.js';

export function syncReviews({ pool }: Stores) {
  return async (request: SyncReviewsRequest, ctx: CallContext): Promise<SyncReviewsResponse> =>
    applySynced(pool, ctx.caller.userId, parseInput(syncReviewsInput, request));
}
