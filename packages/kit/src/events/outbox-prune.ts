// Published outbox rows are only history once JetStream has them: the relay deletes those older than a
// retention period (long enough to investigate an incident), a batch at a time so no delete holds locks
// for long. Unpublished rows are never touched, whatever their age.
import type pg from 'pg';

export const OUTBOX_RETENTION_MS = 7 * 24 * 3_600_000;
const BATCH = 1_000;

/** Deletes published events older than `retentionMs`; returns how many went. */
export async function prunePublishedEvents(pool: pg.Pool, retentionMs = OUTBOX_RETENTION_MS): Promise<number> {
  let deleted = 0;
  for (;;) {
    const { rowCount } = await pool.query(
      `DELETE FROM outbox_events WHERE id IN (
         SELECT id FROM outbox_events
         WHERE published_at IS NOT NULL AND published_at < now() - make_interval(secs => $1 / 1000.0)
         LIMIT ${BATCH})`,
      [retentionMs],
    );
    deleted += rowCount ?? 0;
    if ((rowCount ?? 0) < BATCH) return deleted;
  }
}
