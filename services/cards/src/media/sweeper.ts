// Removes from the object store what the database no longer wants: uploads past their expiry (never kept,
// never imported, or read already; not one whose import is queued or running, which removes it when it is
// over), exports' files past theirs (the export's row stays, as expired), and the
// objects queued in object_deletions (a deleted learner's files).
// Rows go first, in a transaction that queues their objects; the objects go after, so a crash between the
// two leaves only a queue to finish, never a row whose bytes are gone. Every replica runs it as a periodic
// clean-up (@engram/kit/jobs/periodic); each turn takes the schema's sweep advisory lock, so one replica sweeps at
// a time.
import type { PeriodicCleanup } from '@engram/kit/jobs/periodic';
import type { ObjectStore } from '@engram/kit/storage';
import type { Db } from '../db.js';
import type { Prisma } from '../generated/prisma/client.js';

const BATCH = 500;
/** Two-key advisory lock class of the sweep (the second key is the schema, so test schemas never meet). */
const SWEEP_LOCK_CLASS = 0x0ca5;

/** Queues the objects of these rows for removal, inside the transaction that deletes the rows. */
export async function queueObjectDeletions(
  tx: Prisma.TransactionClient,
  rows: Record<string, { objectKey: string }[]>,
): Promise<void> {
  const data = Object.values(rows)
    .flat()
    .map(({ objectKey }) => ({ objectKey }));
  if (data.length > 0) await tx.objectDeletion.createMany({ data, skipDuplicates: true });
}

export interface SweepResult {
  removed: number;
  lockHeld: boolean;
}

/** One sweep: expired uploads become queued objects, and queued objects are removed from the store. */
export async function sweepObjects(db: Db, store: ObjectStore, now = new Date()): Promise<SweepResult> {
  let removed = 0;
  for (;;) {
    const keys = await db.$transaction(async (tx) => {
      const [lock] = await tx.$queryRaw<{ locked: boolean }[]>`
        SELECT pg_try_advisory_xact_lock(${SWEEP_LOCK_CLASS}::int, hashtext(current_schema())) AS locked`;
      if (!lock?.locked) return undefined;
      const expired = await tx.$queryRaw<{ id: string; objectKey: string }[]>`
        SELECT id::text, object_key AS "objectKey" FROM uploads u
        WHERE expires_at <= ${now} AND NOT EXISTS (
          SELECT 1 FROM imports i WHERE i.upload_id = u.id AND i.status IN ('queued', 'running'))
        LIMIT ${BATCH}`;
      if (expired.length > 0) {
        await queueObjectDeletions(tx, { expired });
        await tx.upload.deleteMany({ where: { id: { in: expired.map((upload) => upload.id) } } });
      }
      const expiredExports = await tx.export.findMany({
        where: { expiresAt: { lte: now }, objectKey: { not: null } },
        select: { id: true, objectKey: true },
        take: BATCH,
      });
      if (expiredExports.length > 0) {
        await queueObjectDeletions(tx, {
          exports: expiredExports.flatMap(({ objectKey }) => (objectKey ? [{ objectKey }] : [])),
        });
        await tx.export.updateMany({
          where: { id: { in: expiredExports.map((row) => row.id) } },
          data: { objectKey: null },
        });
      }
      const queued = await tx.objectDeletion.findMany({ orderBy: { queuedAt: 'asc' }, take: BATCH });
      return queued.map((row) => row.objectKey);
    });
    if (keys === undefined) return { removed, lockHeld: false };
    if (keys.length === 0) return { removed, lockHeld: true };
    // Removing a missing object succeeds: a turn that crashed after this line is simply repeated.
    await store.deleteObjects(keys);
    await db.objectDeletion.deleteMany({ where: { objectKey: { in: keys } } });
    removed += keys.length;
  }
}

/** The clean-up of the object store, every `everyMs`. */
export const objectSweep = (db: Db, store: ObjectStore, everyMs: number): PeriodicCleanup => ({
  does: 'sweep the object store',
  everyMs,
  turn: async () => ({ removed: (await sweepObjects(db, store)).removed }),
});
