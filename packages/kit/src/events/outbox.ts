// Writing an event into the service's outbox, inside the caller's transaction, so the event commits or
// rolls back with the change that caused it. The relay (relay.ts) publishes committed rows to JetStream;
// the transaction helpers (kit's `inTransaction`, `prismaTransaction` below) wake it after the commit
// (outbox-announce.ts says why not before).
import { randomUUID } from 'node:crypto';
import type { EventDefinition } from '@engram/contracts/events';
import { type Actor, Actor_Kind, EventEnvelope } from '@engram/proto/events/v1/envelope';
import type pg from 'pg';
import { afterCommit } from '../db.js';
import { announceOutbox } from './outbox-announce.js';
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

/** The outbox's columns with the casts of an `outboxRow`'s values, from the parameter `first` on. */
export function outboxValues(first: number): string {
  return `$${first}::uuid, $${first + 1}::text, $${first + 2}::bytea, $${first + 3}::jsonb`;
}

export const OUTBOX_INSERT = 'INSERT INTO outbox_events (id, type, payload, headers)';

const INSERT_EVENT = `${OUTBOX_INSERT} VALUES (${outboxValues(1)})`;

/** An event's outbox row: its id (also its Nats-Msg-Id) and the values `outboxValues` names. */
export function outboxRow<T>(
  event: EventDefinition<T>,
  payload: T,
  options: EnqueueOptions = {},
): { id: string; values: [string, string, Buffer, string] } {
  const id = options.id ?? randomUUID();
  const envelope = EventEnvelope.encode({
    id,
    type: event.subject,
    occurredAt: options.occurredAt ?? new Date(),
    actor: options.actor ?? { kind: Actor_Kind.KIND_SYSTEM, id: '' },
    payload: asBuffer(event.message.encode(payload).finish()),
  }).finish();
  return { id, values: [id, event.subject, asBuffer(envelope), JSON.stringify(captureTraceHeaders())] };
}

// Many rows in one statement, in the order given (each row's seq follows it).
const INSERT_EVENTS = `${OUTBOX_INSERT}
SELECT id, type, decode(payload, 'base64'), headers::jsonb
FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS e(id, type, payload, headers, n)
ORDER BY n`;

/**
 * Writes events' rows (`outboxRow`'s) into the outbox within the pg transaction `client` runs (kit's
 * `inTransaction`) in one statement, whose commit wakes the relay: a batch's events cost one round trip.
 */
export async function enqueueEventRows(client: pg.PoolClient, rows: ReturnType<typeof outboxRow>[]): Promise<void> {
  if (rows.length === 0) return;
  await client.query(INSERT_EVENTS, [
    rows.map(({ values }) => values[0]),
    rows.map(({ values }) => values[1]),
    rows.map(({ values }) => values[2].toString('base64')),
    rows.map(({ values }) => values[3]),
  ]);
  afterCommit(client, announceOutbox);
}

/** Prisma transaction clients that wrote an event, so their commit wakes the relay. */
const wroteEvents = new WeakSet<object>();

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
  const { id, values } = outboxRow(event, payload, options);
  await executeCount(tx, INSERT_EVENT, values);
  if ('$executeRawUnsafe' in tx) wroteEvents.add(tx);
  else afterCommit(tx as pg.PoolClient, announceOutbox);
  return id;
}

/** What `prismaTransaction` needs of a Prisma client. */
export interface PrismaTransactionRunner<Tx> extends PrismaRawExecutor {
  $transaction<T>(work: (tx: Tx) => Promise<T>, options?: { maxWait?: number; timeout?: number }): Promise<T>;
}

/** A Prisma interactive transaction whose events, once committed, wake the relay at once. */
export async function prismaTransaction<Tx extends PrismaRawExecutor, T>(
  prisma: PrismaTransactionRunner<Tx>,
  work: (tx: Tx) => Promise<T>,
  options?: { maxWait?: number; timeout?: number },
): Promise<T> {
  let wrote = false;
  const result = await prisma.$transaction(async (tx) => {
    const value = await work(tx);
    wrote = wroteEvents.has(tx);
    return value;
  }, options);
  if (wrote) announceOutbox(prisma);
  return result;
}
