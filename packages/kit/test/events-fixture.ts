// What every events test arranges: its own PostgreSQL schema with the events tables and a table of
// applied events, its own stream and subject prefix inside the run's namespace, and bounded waiting.
import { randomBytes, randomUUID } from 'node:crypto';
import { CardCreated } from '@engram/contracts/events';
import { createPool } from '@engram/kit/db';
import { ensureStream, streamSubjects } from '@engram/kit/events/stream';
import { EVENTS_TABLES_SQL } from '@engram/kit/events/tables';
import { createLogger, type Logger } from '@engram/kit/logger';
import { connectNats } from '@engram/kit/nats';
import type { CardCreated as CardCreatedPayload } from '@engram/proto/events/v1/cards';
import { Actor_Kind, type EventEnvelope } from '@engram/proto/events/v1/envelope';
import { testContext } from '@engram/testkit/context';
import { schemaUrl } from '@engram/testkit/databases';
import { type JetStreamManager, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type pg from 'pg';
import { afterAll, beforeAll } from 'vitest';

export { waitUntil } from '@engram/testkit/wait';

export { CardCreated };

/** The catalogue's subject, for tests that publish by hand. */
export const CARD_CREATED = CardCreated.subject;

/** Set-up and clean-up fail rather than hang. */
export const HOOK_TIMEOUT_MS = 30_000;

export interface EventsFixture {
  pool: pg.Pool;
  natsUrl: string;
  nats: NatsConnection;
  jsm: JetStreamManager;
  streamName: string;
  subjectPrefix: string;
  logger: Logger;
  /** Rows the test handler wrote, in the handler's transaction. */
  applied(): Promise<{ event_id: string; card_id: string; trace_id: string | null }[]>;
  processedCount(consumer: string): Promise<number>;
  dispose(): Promise<void>;
}

export async function createEventsFixture(options: { natsUrl?: string } = {}): Promise<EventsFixture> {
  const context = testContext();
  const suffix = randomBytes(4).toString('hex');
  const schema = `events_${suffix}`;
  const streamName = `${context.streamName}_${suffix.toUpperCase()}`;
  const subjectPrefix = `${context.subjectPrefix}${suffix}.`;
  const logger = createLogger({ service: 'events-test', level: process.env.LOG_LEVEL ?? 'silent' });
  const pool = createPool(schemaUrl(context.databaseUrl, schema), { max: 6 });
  await pool.query(`CREATE SCHEMA "${schema}"`);
  await pool.query(EVENTS_TABLES_SQL);
  await pool.query('CREATE TABLE cards (id text PRIMARY KEY)');
  await pool.query('CREATE TABLE applied (event_id uuid PRIMARY KEY, card_id text NOT NULL, trace_id text)');
  const natsUrl = options.natsUrl ?? context.natsUrl;
  const nats = await connectNats(natsUrl, 'events-test', logger);
  const jsm = await jetstreamManager(nats);
  await ensureStream(jsm, { name: streamName, subjects: streamSubjects(subjectPrefix) });

  return {
    pool,
    natsUrl,
    nats,
    jsm,
    streamName,
    subjectPrefix,
    logger,
    async applied() {
      return (await pool.query('SELECT event_id, card_id, trace_id FROM applied')).rows;
    },
    async processedCount(consumer) {
      const { rows } = await pool.query('SELECT count(*)::int AS n FROM processed_events WHERE consumer = $1', [
        consumer,
      ]);
      return rows[0].n;
    },
    async dispose() {
      await jsm.streams.delete(streamName).catch(() => undefined);
      await nats.close();
      await pool.query(`DROP SCHEMA "${schema}" CASCADE`);
      await pool.end();
    },
  };
}

/**
 * One fixture for the whole test file: created before its tests and disposed of after them. The object
 * returned is filled in before the first test runs, so tests use it (and spread it) directly.
 */
export function useEventsFixture(options: () => Promise<{ natsUrl?: string }> = async () => ({})): EventsFixture {
  const fixture = {} as EventsFixture;
  let created = false;
  beforeAll(async () => {
    Object.assign(fixture, await createEventsFixture(await options()));
    created = true;
  }, HOOK_TIMEOUT_MS);
  afterAll(async () => {
    if (created) await fixture.dispose();
  }, HOOK_TIMEOUT_MS);
  return fixture;
}

export function cardCreatedPayload(cardId = randomUUID()): CardCreatedPayload {
  return { cardId, ownerId: 'user-1', createdAt: new Date() };
}

export const userActor = { kind: Actor_Kind.KIND_USER, id: 'user-1' };

/** The handler the tests consume with: records the card, in the consumer's transaction. */
export async function recordCard(envelope: EventEnvelope, tx: pg.PoolClient, traceId?: string): Promise<void> {
  const card = CardCreated.message.decode(envelope.payload);
  await tx.query('INSERT INTO applied (event_id, card_id, trace_id) VALUES ($1, $2, $3)', [
    envelope.id,
    card.cardId,
    traceId ?? null,
  ]);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `work` in a transaction on its own connection and commits, or rolls back when asked or on error. */
export async function inTransaction<T>(
  pool: pg.Pool,
  work: (tx: pg.PoolClient) => Promise<T>,
  outcome: 'commit' | 'rollback' = 'commit',
): Promise<T> {
  const tx = await pool.connect();
  try {
    await tx.query('BEGIN');
    const result = await work(tx);
    await tx.query(outcome === 'commit' ? 'COMMIT' : 'ROLLBACK');
    return result;
  } catch (error) {
    await tx.query('ROLLBACK');
    throw error;
  } finally {
    tx.release();
  }
}
