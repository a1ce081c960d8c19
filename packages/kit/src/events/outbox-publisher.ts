// One pass of the relay: claim the oldest unpublished outbox rows, publish them to JetStream, and mark
// the ones JetStream acknowledged, all in one transaction. A row whose publish failed stays unpublished
// and locked only until the transaction ends, so the next pass retries it; nothing is skipped.
import type { JetStreamClient } from '@nats-io/jetstream';
import { headers as natsHeaders } from '@nats-io/transport-node';
import type pg from 'pg';
import { inTransaction } from '../db.js';
import { eventSubject } from './stream.js';
import type { TraceHeaders } from './trace-headers.js';

interface OutboxRow {
  id: string;
  type: string;
  payload: Buffer;
  headers: TraceHeaders;
}

export interface PublishPass {
  claimed: number;
  published: number;
  /** Why some claimed rows were not published; they will be retried. */
  failure?: unknown;
}

// Two-key form, so it cannot collide with single-key advisory locks (the migration runner's).
const OUTBOX_LOCK_CLASS = 0x0e0b;

// One relay per schema publishes at a time, so replicas cannot interleave batches out of order;
// SKIP LOCKED still keeps any other reader of the table from blocking on claimed rows.
export const TAKE_RELAY_LOCK = `SELECT pg_try_advisory_xact_lock(${OUTBOX_LOCK_CLASS}, hashtext(current_schema())) AS locked`;

const CLAIM = `
SELECT id, type, payload, headers FROM outbox_events
 WHERE published_at IS NULL
 ORDER BY seq
 LIMIT $1
 FOR UPDATE SKIP LOCKED`;

const MARK_PUBLISHED = 'UPDATE outbox_events SET published_at = now() WHERE id = ANY($1::uuid[])';

export interface PublishOptions {
  subjectPrefix: string;
  batchSize: number;
  publishTimeoutMs: number;
}

async function publishRows(js: JetStreamClient, rows: OutboxRow[], options: PublishOptions) {
  // Sent together on one connection, so JetStream stores them in claim order; awaited together for speed.
  return Promise.allSettled(
    rows.map((row) => {
      const headers = natsHeaders();
      for (const [key, value] of Object.entries(row.headers)) headers.set(key, value);
      return js.publish(eventSubject(options.subjectPrefix, row.type), row.payload, {
        msgID: row.id,
        headers,
        timeout: options.publishTimeoutMs,
      });
    }),
  );
}

export function publishPendingEvents(
  pool: pg.Pool,
  js: JetStreamClient,
  options: PublishOptions,
): Promise<PublishPass> {
  return inTransaction(pool, async (client) => {
    const lock = await client.query<{ locked: boolean }>(TAKE_RELAY_LOCK);
    const rows = lock.rows[0]?.locked ? (await client.query<OutboxRow>(CLAIM, [options.batchSize])).rows : [];
    const results = await publishRows(js, rows, options);
    const published = rows.filter((_, index) => results[index]?.status === 'fulfilled').map((row) => row.id);
    if (published.length > 0) await client.query(MARK_PUBLISHED, [published]);
    const failed = results.find((result) => result.status === 'rejected');
    return { claimed: rows.length, published: published.length, failure: failed?.reason };
  });
}
