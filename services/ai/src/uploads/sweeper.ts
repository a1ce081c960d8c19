// Removes uploads past their day, as a periodic clean-up (@engram/kit/jobs/periodic): every replica runs it, but
// each batch takes the schema's upload-sweep advisory lock first, so only one replica deletes at a time and the
// others skip their turn. Batches keep each delete's locks short.

import type { PeriodicCleanup } from '@engram/kit/jobs/periodic';
import type { Db } from '../db.js';
import { keptSince } from './quota.js';

const BATCH = 1_000;
// Two-key advisory lock class of the sweep (the second key is the schema, so test schemas never meet).
export const SWEEP_LOCK_CLASS = 0x0a1e;

export interface SweepResult {
  deleted: number;
  /** false when another replica held the lock, so this one left the sweep to it. */
  lockHeld: boolean;
}

/** Deletes every upload kept past its day, a batch per transaction, under the sweep lock. */
export async function sweepExpiredUploads(db: Db, now = Date.now()): Promise<SweepResult> {
  let deleted = 0;
  for (;;) {
    const batch = await db.$transaction(async (tx) => {
      const [lock] = await tx.$queryRaw<{ locked: boolean }[]>`
        SELECT pg_try_advisory_xact_lock(${SWEEP_LOCK_CLASS}::int, hashtext(current_schema())) AS locked`;
      if (!lock?.locked) return undefined;
      return tx.$executeRaw`
        DELETE FROM uploaded_files WHERE id IN (
          SELECT id FROM uploaded_files WHERE created_at <= ${keptSince(now)} LIMIT ${BATCH})`;
    });
    if (batch === undefined) return { deleted, lockHeld: false };
    deleted += batch;
    if (batch < BATCH) return { deleted, lockHeld: true };
  }
}

/** The clean-up of expired uploads, every `everyMs`. */
export const uploadSweep = (db: Db, everyMs: number): PeriodicCleanup => ({
  does: 'remove expired uploads',
  everyMs,
  turn: async () => ({ deleted: (await sweepExpiredUploads(db)).deleted }),
});
