// Applying an event at most once per consumer: the processed_events row and the handler's writes commit
// in one transaction, so a redelivered or republished event finds its row and is skipped.
import type { EventEnvelope } from '@engram/proto/events/v1/envelope';
import type pg from 'pg';

/** Applies one event inside the transaction it is given; throwing rolls the transaction back. */
export type EventHandler = (envelope: EventEnvelope, tx: pg.PoolClient) => Promise<void>;

/** The handler threw: the event is retried and, after the last allowed delivery, parked. */
export class HandlerFailed extends Error {
  constructor(cause: unknown) {
    super(`event handler failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'HandlerFailed';
  }
}

const RECORD_PROCESSED = `
INSERT INTO processed_events (consumer, event_id) VALUES ($1, $2::uuid)
ON CONFLICT DO NOTHING`;

export type ApplyOutcome = 'applied' | 'already-applied';

/**
 * Errors other than HandlerFailed come from PostgreSQL itself (unreachable, event id not a UUID, ...);
 * the caller retries them without counting them against the handler.
 */
export async function applyOnce(
  pool: pg.Pool,
  consumer: string,
  envelope: EventEnvelope,
  handle: EventHandler,
): Promise<ApplyOutcome> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    // A concurrent delivery of the same event waits here on the primary key until this one commits.
    const recorded = await client.query(RECORD_PROCESSED, [consumer, envelope.id]);
    if (recorded.rowCount === 0) {
      await client.query('ROLLBACK');
      return 'already-applied';
    }
    try {
      await handle(envelope, client);
    } catch (error) {
      throw new HandlerFailed(error);
    }
    // A handler that swallowed a failed statement leaves the transaction aborted; COMMIT then rolls back.
    const committed = await client.query('COMMIT');
    if (committed.command === 'ROLLBACK') throw new HandlerFailed(new Error('the transaction was aborted'));
    return 'applied';
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError: Error) => {
      broken = rollbackError;
    });
    throw error;
  } finally {
    client.release(broken);
  }
}
