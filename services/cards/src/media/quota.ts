// A learner's storage quota for card files: their plan's, as billing's GetEntitlements answers it (asked
// with the caller's token, whose audience names billing), and what they hold now: the files they keep and
// the card uploads on their way (each at its declared size, until it is kept or expires). Whatever takes
// room (an upload begun, a file kept) decides in a transaction that first takes the learner's storage lock
// (lockStorage), so two uploads at once are decided one after the other: both cannot pass on the same room.
import { MEDIA_REASONS } from '@engram/contracts/media';
import { FailedPrecondition, Unavailable } from '@engram/kit/errors';
import { unary } from '@engram/kit/grpc/client';
import { askPeer } from '@engram/kit/grpc/peer';
import type { CallContext } from '@engram/kit/grpc/server';
import type { BillingServiceClient } from '@engram/proto/billing/v1/billing';
import type { Db } from '../db.js';
import type { Prisma } from '../generated/prisma/client.js';
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

/** The advisory lock of a learner's storage decisions (pg_advisory_xact_lock(hashtext(key))). */
export const storageLockKey = (ownerId: string) => `cards-media:${ownerId}`;

/** Takes the learner's storage lock until `tx` ends: whoever decides on their room next waits for this one. */
export async function lockStorage(tx: Prisma.TransactionClient, ownerId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${storageLockKey(ownerId)}))`;
}

/** The bytes `ownerId` keeps, with the card uploads on their way but `exceptUploadId`'s. */
export async function heldBytes(tx: Prisma.TransactionClient, ownerId: string, exceptUploadId?: string) {
  const kept = await tx.mediaFile.aggregate({ where: { ownerId }, _sum: { size: true } });
  const coming = await tx.upload.aggregate({
    where: {
      ownerId,
      purpose: 'card',
      mediaId: null,
      expiresAt: { gt: new Date() },
      ...(exceptUploadId && { id: { not: exceptUploadId } }),
    },
    _sum: { size: true },
  });
  return Number((kept._sum.size ?? 0n) + (coming._sum.size ?? 0n));
}

/**
 * Refuses a file of `size` bytes that would take the learner past their quota, naming both. Call it in the
 * transaction that takes the room, after lockStorage.
 */
export async function assertRoomFor(
  tx: Prisma.TransactionClient,
  ownerId: string,
  size: number,
  quota: Quota,
  exceptUploadId?: string,
): Promise<void> {
  const used = await heldBytes(tx, ownerId, exceptUploadId);
  if (used + size <= quota.quotaBytes) return;
  throw new FailedPrecondition(
    `This file needs ${megabytes(size)}, and your plan keeps ${megabytes(quota.quotaBytes)} of images and sounds ` +
      `(${megabytes(used)} used). Delete files you no longer use, or choose a larger plan.`,
    MEDIA_REASONS.quotaReached,
  );
}
