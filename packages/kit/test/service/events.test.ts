// The events contract against real PostgreSQL and NATS: an event commits with its change, is published
// by the relay, and is applied once by a durable consumer, or parked when it cannot be.
import { randomUUID } from 'node:crypto';
import { inTransaction as serviceTransaction } from '@engram/kit/db';
import { type ConsumerOptions, type EventConsumer, startConsumer } from '@engram/kit/events/consumer';
import { DEAD_LETTER_HEADERS } from '@engram/kit/events/dead-letter';
import { enqueueEvent } from '@engram/kit/events/outbox';
import { readOutboxLag } from '@engram/kit/events/outbox-lag';
import { type OutboxRelay, startOutboxRelay } from '@engram/kit/events/relay';
import { deadLetterSubject, eventSubject } from '@engram/kit/events/stream';
import { on } from '@engram/kit/events/subscriptions';
import { connectNats } from '@engram/kit/nats';
import { EventEnvelope } from '@engram/proto/events/v1/envelope';
import { jetstream } from '@nats-io/jetstream';
import type pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CARD_CREATED,
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

let fixture: EventsFixture;
const running: { stop(): Promise<void> }[] = [];

beforeEach(async () => {
  fixture = await createEventsFixture();
}, HOOK_TIMEOUT_MS);

afterEach(async () => {
  for (const stoppable of running.splice(0).reverse()) await stoppable.stop();
  await fixture.dispose();
}, HOOK_TIMEOUT_MS);

function relay(options: { pollIntervalMs?: number; lingerMs?: number } = {}): OutboxRelay {
  const started = startOutboxRelay({ ...fixture, pollIntervalMs: 200, ...options });
  running.push(started);
  return started;
}

type TestHandler = (envelope: EnvelopeOf, tx: pg.PoolClient) => Promise<void>;
type EnvelopeOf = Parameters<typeof recordCard>[0];

/** A consumer of CardCreated whose handler gets the envelope and the transaction (recordCard by default). */
async function consumer(
  options: Partial<ConsumerOptions<pg.PoolClient>> & { handle?: TestHandler } = {},
): Promise<EventConsumer> {
  const { handle = recordCard, ...rest } = options;
  const started = await startConsumer<pg.PoolClient>({
    ...fixture,
    service: 'cards',
    purpose: 'test',
    subscriptions: [on(CardCreated, (_, { envelope, tx }) => handle(envelope, tx))],
    ...rest,
  });
  running.push(started);
  return started;
}

describe('outbox to consumer', () => {
  it('delivers an event committed with its change to a durable consumer exactly once', async () => {
    const cardId = randomUUID();
    const eventId = await inTransaction(fixture.pool, async (tx) => {
      await tx.query('INSERT INTO cards (id) VALUES ($1)', [cardId]);
      return enqueueEvent(tx, CardCreated, cardCreatedPayload(cardId), { actor: userActor });
    });
    const cards = await consumer();
    relay();

    await waitUntil('the event is applied', async () => (await fixture.applied()).length > 0);
    await sleep(500); // room for a second, wrong application

    expect(await fixture.applied()).toEqual([{ event_id: eventId, card_id: cardId, trace_id: null }]);
    expect(await fixture.processedCount(cards.name)).toBe(1);
    expect(await readOutboxLag(fixture.pool)).toEqual({ unpublished: 0, oldestAgeSeconds: 0 });
    const info = await fixture.jsm.consumers.info(fixture.streamName, 'cards-test');
    expect(info.num_ack_pending).toBe(0);
    expect(info.num_pending).toBe(0);
  });

  it('never publishes an event whose transaction rolled back', async () => {
    const rolledBack = randomUUID();
    await inTransaction(
      fixture.pool,
      async (tx) => {
        await tx.query('INSERT INTO cards (id) VALUES ($1)', [rolledBack]);
        await enqueueEvent(tx, CardCreated, cardCreatedPayload(rolledBack), { actor: userActor });
      },
      'rollback',
    );
    // A later committed event: the relay publishes in order, so once it is applied, an earlier event would be too.
    const committed = randomUUID();
    await inTransaction(fixture.pool, (tx) =>
      enqueueEvent(tx, CardCreated, cardCreatedPayload(committed), { actor: userActor }),
    );
    await consumer();
    relay();

    await waitUntil('the committed event is applied', async () => (await fixture.applied()).length > 0);

    expect((await fixture.applied()).map((row) => row.card_id)).toEqual([committed]);
    const stream = await fixture.jsm.streams.info(fixture.streamName);
    expect(stream.state.messages).toBe(1);
  });
});

describe('the relay under a stream of events', () => {
  it('publishes events committed close together in one pass, waiting a moment after the first is announced', async () => {
    // Only a notification starts a pass here: the fallback poll is a minute away.
    relay({ pollIntervalMs: 60_000, lingerMs: 300 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      // As a service commits them: each transaction announces its event once it has committed.
      ids.push(
        await serviceTransaction(fixture.pool, (tx) =>
          enqueueEvent(tx, CardCreated, cardCreatedPayload(randomUUID()), { actor: userActor }),
        ),
      );
      await sleep(20); // events that commit one after another, as reviews do
    }
    const published = async () =>
      (
        await fixture.pool.query<{ passes: number; published: number }>(
          `SELECT count(DISTINCT published_at)::int AS passes, count(published_at)::int AS published
             FROM outbox_events WHERE id = ANY($1::uuid[])`,
          [ids],
        )
      ).rows[0];
    await waitUntil('the five events are published', async () => (await published())?.published === 5);
    // A pass marks its events in one transaction, at one now(): one pass, or two if the relay had not yet
    // finished its first look at the outbox when the first event committed.
    expect((await published())?.passes).toBeLessThanOrEqual(2);
  });
});

describe('redelivery', () => {
  it('applies an envelope published twice under different message ids once', async () => {
    const envelope = EventEnvelope.encode({
      id: randomUUID(),
      type: CARD_CREATED,
      occurredAt: new Date(),
      actor: userActor,
      payload: Buffer.from(CardCreated.message.encode(cardCreatedPayload()).finish()),
    }).finish();
    const js = jetstream(fixture.nats);
    const subject = eventSubject(fixture.subjectPrefix, CARD_CREATED);
    await js.publish(subject, envelope, { msgID: randomUUID() });
    await js.publish(subject, envelope, { msgID: randomUUID() });
    let runs = 0;
    const cards = await consumer({
      handle: async (received, tx) => {
        runs += 1;
        await recordCard(received, tx);
      },
    });

    await waitUntil('both deliveries are acknowledged', async () => {
      const info = await fixture.jsm.consumers.info(fixture.streamName, cards.name);
      return info.ack_floor.stream_seq === 2;
    });

    expect(runs).toBe(1);
    expect(await fixture.applied()).toHaveLength(1);
    expect(await fixture.processedCount(cards.name)).toBe(1);
  });

  it('does not apply again an event redelivered because the consumer died before acknowledging it', async () => {
    // The first consumer process "dies" right after its transaction: its connection closes before the ack.
    const doomed = await connectNats(fixture.natsUrl, 'doomed', fixture.logger);
    let firstRuns = 0;
    const first = await consumer({
      nats: doomed,
      ackWaitMs: 1_000,
      handle: async (envelope, tx) => {
        firstRuns += 1;
        await recordCard(envelope, tx);
        void doomed.close();
      },
    });
    await inTransaction(fixture.pool, (tx) =>
      enqueueEvent(tx, CardCreated, cardCreatedPayload(), { actor: userActor }),
    );
    relay();
    await waitUntil('the first consumer applied the event', async () => (await fixture.applied()).length === 1);
    await doomed.closed();
    await first.stop();

    let secondRuns = 0;
    const second = await consumer({
      ackWaitMs: 1_000,
      handle: async (envelope, tx) => {
        secondRuns += 1;
        await recordCard(envelope, tx);
      },
    });
    await waitUntil('the redelivery is acknowledged', async () => {
      const info = await fixture.jsm.consumers.info(fixture.streamName, second.name);
      return info.ack_floor.stream_seq === 1 && info.num_ack_pending === 0;
    });

    const info = await fixture.jsm.consumers.info(fixture.streamName, second.name);
    expect(info.delivered.consumer_seq).toBe(2); // it really was delivered again
    expect(firstRuns).toBe(1);
    expect(secondRuns).toBe(0);
    expect(await fixture.applied()).toHaveLength(1);
    expect(await fixture.processedCount(second.name)).toBe(1);
  });
});

describe('poison events', () => {
  it('parks an event in the dead-letter subject after maxDeliver failed attempts', async () => {
    const parked = fixture.nats.subscribe(deadLetterSubject(fixture.subjectPrefix, 'cards'), {
      max: 1,
      timeout: 20_000,
    });
    let attempts = 0;
    const cards = await consumer({
      maxDeliver: 3,
      backoffMs: [100],
      handle: async (envelope, tx) => {
        attempts += 1;
        await recordCard(envelope, tx);
        throw new Error('cannot apply this card\nsecond line');
      },
    });
    const eventId = await inTransaction(fixture.pool, (tx) =>
      enqueueEvent(tx, CardCreated, cardCreatedPayload(), { actor: userActor }),
    );
    relay();

    let letter: { data: Uint8Array; header(name: string): string } | undefined;
    for await (const msg of parked) {
      letter = { data: msg.data, header: (name) => msg.headers?.get(name) ?? '' };
    }
    await sleep(500); // room for a wrong fourth attempt

    expect(letter).toBeDefined();
    expect(EventEnvelope.decode(letter!.data).id).toBe(eventId);
    expect(letter!.header(DEAD_LETTER_HEADERS.error)).toBe('event handler failed: cannot apply this card second line');
    expect(letter!.header(DEAD_LETTER_HEADERS.consumer)).toBe(cards.name);
    expect(letter!.header(DEAD_LETTER_HEADERS.deliveries)).toBe('3');
    expect(attempts).toBe(3);
    expect(await fixture.applied()).toEqual([]);
    expect(await fixture.processedCount(cards.name)).toBe(0);
    const info = await fixture.jsm.consumers.info(fixture.streamName, cards.name);
    expect(info.num_ack_pending).toBe(0);
    expect(info.num_redelivered).toBe(0);
  });
});
