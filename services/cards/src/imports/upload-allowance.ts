// The files a learner sent to import and has not imported yet. They sit in the store until their import is
// over (it removes them, done or failed) or they expire, IMPORT_UPLOAD_HOURS after they were sent (the sweeper
// removes them; not while their import is queued or running). Together they may number and weigh no more than
// the plan's allowance (IMPORT_UPLOAD_ALLOWANCE): a new one past it is refused, counted under the learner's
// lock so two uploads at once cannot both pass.
import { IMPORT_UPLOAD_HOURS, importUploadAllowance } from '@engram/contracts/collection-limits';
import { MEDIA_REASONS } from '@engram/contracts/media';
import { FailedPrecondition } from '@engram/kit/errors';
import type { Prisma } from '../generated/prisma/client.js';
import { megabytes } from '../media/quota.js';

type Tx = Prisma.TransactionClient;

const WAIT = `Import them, or wait until they expire ${IMPORT_UPLOAD_HOURS} hours after they were sent, then send this one.`;

/** What `ownerId`'s files waiting to be imported number and weigh. */
export async function waitingImportUploads(tx: Tx, ownerId: string): Promise<{ files: number; bytes: number }> {
  const [row] = await tx.$queryRaw<{ files: number; bytes: bigint }[]>`
    SELECT count(*)::int AS files, coalesce(sum(size), 0)::bigint AS bytes FROM uploads u
    WHERE owner_id = ${ownerId} AND purpose = 'import' AND (expires_at > now() OR EXISTS (
      SELECT 1 FROM imports i WHERE i.upload_id = u.id AND i.status IN ('queued', 'running')))`;
  return { files: row?.files ?? 0, bytes: Number(row?.bytes ?? 0n) };
}

/**
 * Takes the learner's lock on their uploads to import, and refuses a file of `size` bytes that would take their
 * waiting files past the allowance of `plan`, naming it; the caller then records the upload in the same transaction.
 */
export async function assertRoomToWait(tx: Tx, ownerId: string, size: number, plan: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`cards-import-uploads:${ownerId}`}))`;
  const allowance = importUploadAllowance(plan);
  const waiting = await waitingImportUploads(tx, ownerId);
  if (waiting.files >= allowance.files) {
    throw new FailedPrecondition(
      `You have ${waiting.files} files waiting to be imported, the most your plan lets wait at once. ${WAIT}`,
      MEDIA_REASONS.importUploadsWaiting,
    );
  }
  if (waiting.bytes + size > allowance.bytes) {
    throw new FailedPrecondition(
      `This file needs ${megabytes(size)}, and your files waiting to be imported already take ` +
        `${megabytes(waiting.bytes)} of the ${megabytes(allowance.bytes)} your plan lets wait at once. ${WAIT}`,
      MEDIA_REASONS.importUploadsWaiting,
    );
  }
}
