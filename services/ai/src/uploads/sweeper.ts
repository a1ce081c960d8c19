// Removes uploads past their day on a schedule (there is no job queue in @engram/kit yet): every replica
// runs the loop, but each batch takes the schema's upload-sweep advisory lock first, so only one replica
// deletes at a time and the others skip their turn. Batches keep each delete's locks short.

import { createWakeSignal } from '@engram/kit/events/wake-signal';
import type { Logger } from '@engram/kit/logger';
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

/** Sweeps now and then every `intervalMs` until stopped; a failure is logged and tried at the next turn. */
export function startUploadSweeper(db: Db, logger: Logger, intervalMs: number) {
  const signal = createWakeSignal();
  let stopped = false;
  async function run() {
    while (!stopped) {
      try {
        const { deleted } = await sweepExpiredUploads(db);
        if (deleted > 0) logger.info({ deleted }, 'removed expired uploads');
      } catch (error) {
        logger.warn({ err: error }, 'could not remove expired uploads');
      }
      await signal.pause(intervalMs, false);
    }
  }
  const running = run();
  return {
    async stop() {
      stopped = true;
      signal.close();
      await running;
    },
  };
}
