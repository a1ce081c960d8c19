// Review: records one review exactly once (review/record-review.ts holds the transaction).
import { reviewInput } from '@engram/contracts/learning';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { ReviewRequest, ReviewResponse } from '@engram/proto/cards/v1/review';
import type { Stores } from '../db.js';
import { recordReview } from '../review/record-review.js';

export function review({ pool }: Stores) {
  return async (request: ReviewRequest, ctx: CallContext): Promise<ReviewResponse> =>
    recordReview(pool, ctx.caller.userId, parseInput(reviewInput, request));
}
