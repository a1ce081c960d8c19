// Writing an event into the service's outbox, inside the caller's transaction, so the event commits or
// rolls back with the change that caused it. The relay (relay.ts) publishes committed rows to JetStream.
import { randomUUID } from 'node:crypto';
import { type Actor, EventEnvelope } from '@engram/proto/events/v1/envelope';
import { OUTBOX_CHANNEL_PREFIX } from './tables.js';
import { captureTraceHeaders } from './trace-headers.js';

/** A `pg.Client` / `pg.PoolClient` inside a transaction. */
export interface PgQueryable {
  query(text: string, values?: unknown[]): Promise<unknown>;
}

/** A Prisma interactive-transaction client (`prisma.$transaction(async (tx) => ...)`). */
export interface PrismaRawExecutor {
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
}

export type SqlExecutor = PgQueryable | PrismaRawExecutor;

export interface NewEvent {
  /** The logical subject, `engram.<service>.<aggregate>.<event>`. */
  type: string;
  /** The encoded event message named by `type` (e.g. `CardCreated.encode(msg).finish()`). */
  payload: Uint8Array;
  actor: Actor;
  /** Defaults to a new UUID; pass one to make a retried command enqueue the same event. */
  id?: string;
  occurredAt?: Date;
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function execute(tx: SqlExecutor, text: string, values: unknown[]): Promise<unknown> {
  if ('$executeRawUnsafe' in tx) return tx.$executeRawUnsafe(text, ...values);
  return tx.query(text, values);
}

// One round trip: the insert, and a notification PostgreSQL delivers only if the transaction commits.
const INSERT_AND_NOTIFY = `
WITH inserted AS (
  INSERT INTO outbox_events (id, type, payload, headers) VALUES ($1::uuid, $2::text, $3::bytea, $4::jsonb)
  RETURNING 1
)
SELECT pg_notify('${OUTBOX_CHANNEL_PREFIX}' || current_schema(), '') FROM inserted`;

/** Writes the event into the outbox within `tx` and returns its id (also its Nats-Msg-Id). */
export async function enqueueEvent(tx: SqlExecutor, event: NewEvent): Promise<string> {
  const id = event.id ?? randomUUID();
  const envelope = EventEnvelope.encode({
    id,
    type: event.type,
    occurredAt: event.occurredAt ?? new Date(),
    actor: event.actor,
    payload: asBuffer(event.payload),
  }).finish();
  const headers = JSON.stringify(captureTraceHeaders());
  await execute(tx, INSERT_AND_NOTIFY, [id, event.type, asBuffer(envelope), headers]);
  return id;
}
