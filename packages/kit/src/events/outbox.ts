// Writing an event into the service's outbox, inside the caller's transaction, so the event commits or
// rolls back with the change that caused it. The relay (relay.ts) publishes committed rows to JetStream.
import { randomUUID } from 'node:crypto';
import type { EventDefinition } from '@engram/contracts/events';
import { type Actor, Actor_Kind, EventEnvelope } from '@engram/proto/events/v1/envelope';
import { OUTBOX_CHANNEL_PREFIX } from './tables.js';
import { captureTraceHeaders } from './trace-headers.js';

/** A `pg.Client` / `pg.PoolClient` inside a transaction. */
export interface PgQueryable {
  query(text: string, values?: unknown[]): Promise<{ rowCount: number | null }>;
}

/** A Prisma interactive-transaction client (`prisma.$transaction(async (tx) => ...)`). */
export interface PrismaRawExecutor {
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
}

export type SqlExecutor = PgQueryable | PrismaRawExecutor;

export interface EnqueueOptions {
  /** Who caused the event; by default the system (`service` names it, when given). */
  actor?: Actor;
  /** Defaults to a new UUID; pass one to make a retried command enqueue the same event. */
  id?: string;
  occurredAt?: Date;
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Runs one statement in `tx` and returns the number of rows it affected. */
export async function executeCount(tx: SqlExecutor, text: string, values: unknown[]): Promise<number> {
  if ('$executeRawUnsafe' in tx) return tx.$executeRawUnsafe(text, ...values);
  return (await tx.query(text, values)).rowCount ?? 0;
}

// One round trip: the insert, and a notification PostgreSQL delivers only if the transaction commits.
const INSERT_AND_NOTIFY = `
WITH inserted AS (
  INSERT INTO outbox_events (id, type, payload, headers) VALUES ($1::uuid, $2::text, $3::bytea, $4::jsonb)
  RETURNING 1
)
SELECT pg_notify('${OUTBOX_CHANNEL_PREFIX}' || current_schema(), '') FROM inserted`;

/**
 * Writes the event into the outbox within `tx` and returns its id (also its Nats-Msg-Id):
 * `enqueueEvent(tx, CardCreated, { cardId, ownerId, createdAt }, { actor })`, with the event taken from
 * the catalogue of @engram/contracts/events, so its subject and payload type cannot drift apart.
 */
export async function enqueueEvent<T>(
  tx: SqlExecutor,
  event: EventDefinition<T>,
  payload: T,
  options: EnqueueOptions = {},
): Promise<string> {
  const id = options.id ?? randomUUID();
  const envelope = EventEnvelope.encode({
    id,
    type: event.subject,
    occurredAt: options.occurredAt ?? new Date(),
    actor: options.actor ?? { kind: Actor_Kind.KIND_SYSTEM, id: '' },
    payload: asBuffer(event.message.encode(payload).finish()),
  }).finish();
  const headers = JSON.stringify(captureTraceHeaders());
  await executeCount(tx, INSERT_AND_NOTIFY, [id, event.subject, asBuffer(envelope), headers]);
  return id;
}
