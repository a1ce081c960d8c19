// Each learner's upload quota: the files they keep (uploads live for a day) may number at most `files`
// and weigh at most `bytes`. Checked before a file is read, so a learner over it costs no reading, and
// again when it is kept, under a per-learner lock, so concurrent uploads cannot pass it together.
import { AI_REASONS } from '@engram/contracts/ai';
import { FailedPrecondition } from '@engram/kit/errors';
import type { Db, Prisma } from '../db.js';

/** How long an uploaded file's text is kept for Generate's file_id. */
export const UPLOAD_KEPT_MS = 86_400_000;
const MB = 1024 * 1024;
// Two-key advisory locks of this class are ai's per-learner upload locks (the relay's class is 0x0e0b).
const UPLOAD_LOCK_CLASS = 0x0a1f;

export interface UploadQuota {
  files: number;
  bytes: number;
}

/** The oldest upload that still counts against the quota: kept after `now` minus a day. */
export const keptSince = (now = Date.now()) => new Date(now - UPLOAD_KEPT_MS);

const megabytes = (bytes: number) => `${(bytes / MB).toLocaleString('en', { maximumFractionDigits: 1 })} MB`;

function when(date: Date): string {
  const iso = date.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

async function checkWithin(db: Db | Prisma.TransactionClient, userId: string, bytes: number, quota: UploadQuota) {
  const kept = await db.uploadedFile.findMany({
    where: { userId, createdAt: { gt: keptSince() } },
    select: { bytes: true, createdAt: true },
    orderBy: { createdAt: 'asc' },
  });
  const used = kept.reduce((sum, file) => sum + file.bytes, 0);
  // The file whose expiry brings the learner under the count (the oldest, unless the quota was lowered).
  const freeing = kept[kept.length - quota.files];
  if (kept.length >= quota.files && freeing) {
    throw new FailedPrecondition(
      `Upload limit reached: at most ${quota.files} files can be kept for a day; you can upload again after ${when(new Date(freeing.createdAt.getTime() + UPLOAD_KEPT_MS))}.`,
      AI_REASONS.uploadQuotaReached,
    );
  }
  if (used + bytes > quota.bytes) {
    // The learner's files expire oldest first; the first time enough has gone for this one.
    let freed = used + bytes - quota.bytes;
    const until = kept.find((file) => {
      freed -= file.bytes;
      return freed <= 0;
    });
    throw new FailedPrecondition(
      `Upload limit reached: at most ${megabytes(quota.bytes)} of files can be kept for a day${until ? `; you can upload this file after ${when(new Date(until.createdAt.getTime() + UPLOAD_KEPT_MS))}` : ''}.`,
      AI_REASONS.uploadQuotaReached,
    );
  }
}

/** Refuses, before anything is read, a file that would take the learner over their quota. */
export function checkUploadQuota(db: Db, userId: string, bytes: number, quota: UploadQuota): Promise<void> {
  return checkWithin(db, userId, bytes, quota);
}

/** Keeps a file's text if the learner is still within their quota (checked again under their lock). */
export async function keepUpload(
  db: Db,
  file: { id: string; userId: string; fileName: string; text: string; pages: number; bytes: number },
  quota: UploadQuota,
): Promise<void> {
  await db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${UPLOAD_LOCK_CLASS}::int, hashtext(${file.userId}))`;
    await checkWithin(tx, file.userId, file.bytes, quota);
    await tx.uploadedFile.create({ data: file });
  });
}
