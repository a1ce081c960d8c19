// How far the relay is behind: the number and age of committed events not yet published. A growing
// age means NATS is unreachable or the relay is not running; alert on it.
import type pg from 'pg';

export interface OutboxLag {
  unpublished: number;
  /** Seconds since the oldest unpublished event was committed; 0 when none. */
  oldestAgeSeconds: number;
}

export async function readOutboxLag(pool: pg.Pool): Promise<OutboxLag> {
  const { rows } = await pool.query<{ unpublished: number; oldest_age_seconds: number }>(
    `SELECT count(*)::int AS unpublished,
            coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 AS oldest_age_seconds
       FROM outbox_events WHERE published_at IS NULL`,
  );
  const row = rows[0];
  return { unpublished: row?.unpublished ?? 0, oldestAgeSeconds: row?.oldest_age_seconds ?? 0 };
}
