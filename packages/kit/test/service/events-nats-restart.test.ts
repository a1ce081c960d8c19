// Nothing a user did is lost when NATS goes away: an event committed while the broker is down waits in
// the outbox and reaches the consumer exactly once after the broker is back. Runs against a private
// nats-server so the shared one is never restarted.
import { randomUUID } from 'node:crypto';
import { startConsumer } from '@engram/kit/events/consumer';
import { enqueueEvent } from '@engram/kit/events/outbox';
import { readOutboxLag } from '@engram/kit/events/outbox-lag';
import { startOutboxRelay } from '@engram/kit/events/relay';
import { on } from '@engram/kit/events/subscriptions';
import { type PrivateNatsServer, startPrivateNatsServer } from '@engram/testkit/nats-server';
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  CardCreated,
  cardCreatedPayload,
  createEventsFixture,
  type EventsFixture,
  HOOK_TIMEOUT_MS,
  inTransaction,
  recordCard,
  sleep,
  userActor,
  waitUntil,
} from '../events-fixture.ts';

let server: PrivateNatsServer;
let fixture: EventsFixture;

beforeAll(async () => {
  server = await startPrivateNatsServer();
  fixture = await createEventsFixture({ natsUrl: server.url });
}, HOOK_TIMEOUT_MS);

afterAll(async () => {
  await server.start(); // in case a failed test left it stopped, so the stream can be deleted
  await fixture?.dispose();
  await server?.dispose();
}, HOOK_TIMEOUT_MS);

it('delivers an event committed while NATS was down exactly once after NATS is back', async () => {
  let runs = 0;
  const cards = await startConsumer<pg.PoolClient>({
    ...fixture,
    service: 'cards',
    purpose: 'restart',
    subscriptions: [
      on(CardCreated, async (_, { envelope, tx }) => {
        runs += 1;
        await recordCard(envelope, tx);
      }),
    ],
  });
  const relay = startOutboxRelay({ ...fixture, pollIntervalMs: 200, publishTimeoutMs: 1_000, maxBackoffMs: 500 });
  try {
    await server.stop();
    const cardId = randomUUID();
    await inTransaction(fixture.pool, async (tx) => {
      await tx.query('INSERT INTO cards (id) VALUES ($1)', [cardId]);
      await enqueueEvent(tx, CardCreated, cardCreatedPayload(cardId), { actor: userActor });
    });
    await sleep(2_000); // several failed publish attempts

    expect((await readOutboxLag(fixture.pool)).unpublished).toBe(1);

    await server.start();
    await waitUntil(
      'the event is applied after NATS is back',
      async () => (await fixture.applied()).length > 0,
      30_000,
    );
    await sleep(1_000); // room for a second, wrong application

    expect(runs).toBe(1);
    expect((await fixture.applied()).map((row) => row.card_id)).toEqual([cardId]);
    expect(await fixture.processedCount(cards.name)).toBe(1);
    expect((await readOutboxLag(fixture.pool)).unpublished).toBe(0);
  } finally {
    await relay.stop();
    await cards.stop();
  }
});
