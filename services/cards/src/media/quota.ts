// A learner's storage quota for card files: their plan's, as billing's GetEntitlements answers it (asked
// with the caller's token, whose audience names billing), and what they keep now.
import { MEDIA_REASONS } from '@engram/contracts/media';
import { FailedPrecondition, Unavailable } from '@engram/kit/errors';
import { unary } from '@engram/kit/grpc/client';
import { askPeer } from '@engram/kit/grpc/peer';
import type { CallContext } from '@engram/kit/grpc/server';
import type { BillingServiceClient } from '@engram/proto/billing/v1/billing';
import type { Db } from '../db.js';
import type { Quota } from './media-deps.js';

const BILLING_CALL_MS = 3_000;
const MB = 1024 * 1024;

/** quotaOf for MediaDeps: billing's answer for the caller. */
export function billingQuota(billing: BillingServiceClient) {
  return async (ctx: CallContext): Promise<Quota> => {
    const answer = await askPeer('Files cannot be added right now. Please try again in a moment.', () =>
      unary(
        billing,
        billing.getEntitlements,
        {},
        { token: ctx.token, timeoutMs: BILLING_CALL_MS, parentDeadline: ctx.deadline, signal: ctx.signal },
      ),
    );
    if (!answer.mediaQuotaBytes)
      throw new Unavailable('Files cannot be added right now. Please try again in a moment.');
    return { plan: answer.plan, quotaBytes: answer.mediaQuotaBytes };
  };
}

/** The bytes of card files `ownerId` keeps. */
export async function usedBytes(db: Db, ownerId: string): Promise<number> {
  const { _sum } = await db.mediaFile.aggregate({ where: { ownerId }, _sum: { size: true } });
  return Number(_sum.size ?? 0n);
}

export const megabytes = (bytes: number) => `${Math.ceil(bytes / MB).toLocaleString('en')} MB`;

/** Refuses a file of `size` bytes that would take the learner past their quota, naming both. */
export async function assertRoomFor(db: Db, ownerId: string, size: number, quota: Quota): Promise<void> {
  const used = await usedBytes(db, ownerId);
  if (used + size <= quota.quotaBytes) return;
  throw new FailedPrecondition(
    `This file needs ${megabytes(size)}, and your plan keeps ${megabytes(quota.quotaBytes)} of images and sounds ` +
      `(${megabytes(used)} used). Delete files you no longer use, or choose a larger plan.`,
    MEDIA_REASONS.quotaReached,
  );
}
