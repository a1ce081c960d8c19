// CardCreated travels from the transaction that creates a card to a durable consumer,
// exactly once: also when NATS is down at commit time, and also when the event is delivered twice.
// Runs against a private nats-server so the shared one is never restarted.
import { randomBytes } from 'node:crypto';
import { CardCreated } from '@engram/contracts/events';
import { createPool } from '@engram/kit/db';
import { startConsumer } from '@engram/kit/events/consumer';
import { startOutboxRelay } from '@engram/kit/events/relay';
import { ensureEventStream } from '@engram/kit/events/setup';
import { on } from '@engram/kit/events/subscriptions';
import { createLogger } from '@engram/kit/logger';
import { EventEnvelope } from '@engram/proto/events/v1/envelope';
import { testContext } from '@engram/testkit/context';
import { type PrivateNatsServer, startPrivateNatsServer } from '@engram/testkit/nats-server';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, headers, type NatsConnection } from '@nats-io/transport-node';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CardsHarness, startCardsHarness } from '../harness.js';

const logger = createLogger({ service: 'cards-test', level: 'silent' });
const suffix = randomBytes(3).toString('hex');
const events = {
  streamName: `${testContext().streamName}_CARDS_${suffix.toUpperCase()}`,
  subjectPrefix: `${testContext().subjectPrefix}cards${suffix}.`,
};

let server: PrivateNatsServer;
let nats: NatsConnection;
let cards: CardsHarness;
let pool: pg.Pool;
let relay: { stop(): Promise<void> };
let consumer: { stop(): Promise<void> };
/** What the test's consumer applied: card id → times. */
const applied = new Map<string, number>();

async function waitFor(what: string, check: () => boolean, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  server = await startPrivateNatsServer();
  nats = await connect({
    servers: server.url.replace('nats://', ''),
    maxReconnectAttempts: -1,
    reconnectTimeWait: 200,
  });
  cards = await startCardsHarness();
  pool = createPool(cards.databaseUrl, { max: 4 });
  await ensureEventStream(nats, events);
  relay = startOutboxRelay({
    pool,
    nats,
    logger,
    subjectPrefix: events.subjectPrefix,
    pollIntervalMs: 200,
    maxBackoffMs: 500,
  });
  consumer = await startConsumer({
    nats,
    pool,
    logger,
    ...events,
    service: 'test',
    purpose: 'card-counter',
    backoffMs: [200],
    subscriptions: [
      on(CardCreated, async ({ cardId }) => {
        applied.set(cardId, (applied.get(cardId) ?? 0) + 1);
      }),
    ],
  });
}, 60_000);

afterAll(async () => {
  await server?.start();
  await consumer?.stop();
  await relay?.stop();
  await jetstreamManager(nats)
    .then((jsm) => jsm.streams.delete(events.streamName))
    .catch(() => {});
  await nats?.close();
  await pool?.end();
  await cards?.stop();
  await server?.dispose();
}, 60_000);

describe('a created card', () => {
  it('reaches a durable consumer once', async () => {
    const card = await cards.create('ann', 'What is spaced repetition?');
    await waitFor('the card-created event', () => applied.has(card.id));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(applied.get(card.id)).toBe(1);
  });

  it('reaches the consumer once when NATS was down between the commit and the publish', async () => {
    await server.stop();
    const card = await cards.create('ann', 'Committed while NATS is down');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const waiting = await pool.query('select count(*)::int as n from outbox_events where published_at is null');
    expect(waiting.rows[0].n).toBe(1);
    expect(applied.has(card.id)).toBe(false);

    await server.start();
    await waitFor('the event after NATS restarted', () => applied.has(card.id), 30_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(applied.get(card.id)).toBe(1);
  });

  it('is not applied twice when it is delivered again', async () => {
    const card = await cards.create('ann', 'Delivered twice');
    await waitFor('the first delivery', () => applied.has(card.id));
    const row = await pool.query(
      'select payload from outbox_events where id = (select id from outbox_events order by seq desc limit 1)',
    );
    const envelope = EventEnvelope.decode(row.rows[0].payload);
    expect(CardCreated.message.decode(envelope.payload).cardId).toBe(card.id);

    // A relay that crashed after publishing but before marking the row publishes it again, past the
    // duplicate window: JetStream stores it twice and the consumer must recognise the event id.
    const again = headers();
    again.set('Nats-Msg-Id', `${envelope.id}-republished`);
    const stored = await jetstream(nats).publish(`${events.subjectPrefix}${CardCreated.subject}`, row.rows[0].payload, {
      headers: again,
    });
    expect(stored.duplicate).toBe(false);
    // The consumer has taken the second copy and acknowledged it (its acknowledged floor passed the copy): only
    // then does "applied once" say it was recognised, not that it never came.
    const jsm = await jetstreamManager(nats);
    const acknowledged = async () =>
      (await jsm.consumers.info(events.streamName, 'test-card-counter')).ack_floor.stream_seq >= stored.seq;
    const deadline = Date.now() + 20_000;
    while (!(await acknowledged())) {
      if (Date.now() > deadline) throw new Error('timed out waiting for the second copy to be acknowledged');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(applied.get(card.id)).toBe(1);
  });
});
