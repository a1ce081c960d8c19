// The events stream's limits come from configuration; a stream whose limits an operator changed keeps
// them unless the service is told to enforce its own. A consumer whose JetStream consumer is deleted
// while it runs creates it again and carries on; NATS absent at start-up is waited for, cancellably.
import { randomBytes, randomUUID } from 'node:crypto';
import { parseConfig } from '@engram/kit/config';
import { startConsumer } from '@engram/kit/events/consumer';
import { enqueueEvent } from '@engram/kit/events/outbox';
import { startOutboxRelay } from '@engram/kit/events/relay';
import { ensureEventStream, eventsSettings, eventVars } from '@engram/kit/events/setup';
import { ensureStream, streamSubjects } from '@engram/kit/events/stream';
import { on } from '@engram/kit/events/subscriptions';
import { connectNats } from '@engram/kit/nats';
import { type PrivateNatsServer, startPrivateNatsServer } from '@engram/testkit/nats-server';
import { nanos } from '@nats-io/transport-node';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CardCreated,
  cardCreatedPayload,
  HOOK_TIMEOUT_MS,
  inTransaction,
  recordCard,
  useEventsFixture,
  userActor,
  waitUntil,
} from '../events-fixture.ts';

const HOUR_MS = 3_600_000;

const fixture = useEventsFixture();

function streamName(): string {
  return `${fixture.streamName}_L${randomBytes(2).toString('hex').toUpperCase()}`;
}

describe('stream limits', () => {
  it('reads them from EVENTS_STREAM_MAX_AGE_HOURS, EVENTS_STREAM_MAX_BYTES and EVENTS_STREAM_REPLICAS', () => {
    const config = parseConfig('cards', eventVars, {
      NATS_URL: 'nats://localhost:4222',
      EVENTS_STREAM_MAX_AGE_HOURS: '48',
      EVENTS_STREAM_MAX_BYTES: '1073741824',
      EVENTS_STREAM_REPLICAS: '3',
      EVENTS_STREAM_ENFORCE_LIMITS: 'true',
    });
    expect(eventsSettings(config)).toEqual({
      streamName: 'ENGRAM',
      subjectPrefix: '',
      limits: { maxAgeMs: 48 * HOUR_MS, maxBytes: 1_073_741_824, replicas: 3 },
      enforceLimits: true,
    });
    const defaults = eventsSettings(parseConfig('cards', eventVars, { NATS_URL: 'nats://localhost:4222' }));
    expect(defaults).toMatchObject({ limits: { maxAgeMs: 720 * HOUR_MS, maxBytes: -1, replicas: 1 } });
    expect(defaults.enforceLimits).toBe(false);
  });

  it('refuses limits that are not numbers', () => {
    expect(() =>
      parseConfig('cards', eventVars, { NATS_URL: 'nats://x:4222', EVENTS_STREAM_REPLICAS: 'three' }),
    ).toThrow(/EVENTS_STREAM_REPLICAS: must be 1 to 5/);
    expect(() =>
      parseConfig('cards', eventVars, { NATS_URL: 'nats://x:4222', EVENTS_STREAM_MAX_AGE_HOURS: '-1' }),
    ).toThrow(/EVENTS_STREAM_MAX_AGE_HOURS/);
  });

  it('creates the stream with the configured limits', async () => {
    const name = streamName();
    const settings = {
      streamName: name,
      subjectPrefix: `${fixture.subjectPrefix}c.`,
      limits: { maxAgeMs: 2 * HOUR_MS, maxBytes: 10_000_000, replicas: 1 },
    };
    try {
      expect(await ensureEventStream(fixture.nats, settings)).toEqual({ maxAgeMs: 2 * HOUR_MS });
      const { config } = await fixture.jsm.streams.info(name);
      expect(config).toMatchObject({ max_age: nanos(2 * HOUR_MS), max_bytes: 10_000_000, num_replicas: 1 });
    } finally {
      await fixture.jsm.streams.delete(name);
    }
  });

  it("keeps an operator's limits on an existing stream and reports the difference, unless told to enforce", async () => {
    const name = streamName();
    const subjects = streamSubjects(`${fixture.subjectPrefix}l.`);
    await ensureStream(fixture.jsm, { name, subjects, limits: { maxAgeMs: 5 * HOUR_MS, maxBytes: 5_000_000 } });
    const differences: unknown[] = [];
    const configured = { maxAgeMs: 1 * HOUR_MS, maxBytes: 1_000_000, replicas: 1 };
    try {
      await ensureStream(fixture.jsm, {
        name,
        subjects,
        limits: configured,
        onLimitsDiffer: (difference) => differences.push(difference),
      });
      expect((await fixture.jsm.streams.info(name)).config).toMatchObject({
        max_age: nanos(5 * HOUR_MS),
        max_bytes: 5_000_000,
      });
      expect(differences).toEqual([
        {
          max_age: { configured: nanos(HOUR_MS), actual: nanos(5 * HOUR_MS) },
          max_bytes: { configured: 1_000_000, actual: 5_000_000 },
        },
      ]);

      await ensureStream(fixture.jsm, { name, subjects, limits: configured, enforceLimits: true });
      expect((await fixture.jsm.streams.info(name)).config).toMatchObject({
        max_age: nanos(HOUR_MS),
        max_bytes: 1_000_000,
      });
    } finally {
      await fixture.jsm.streams.delete(name);
    }
  });
});

describe('a consumer deleted while running', () => {
  it('is created again and receives the events published after', async () => {
    const consumer = await startConsumer<pg.PoolClient>({
      ...fixture,
      service: 'cards',
      purpose: 'recreated',
      subscriptions: [on(CardCreated, (_, { envelope, tx }) => recordCard(envelope, tx))],
    });
    const relay = startOutboxRelay({ ...fixture, pollIntervalMs: 200 });
    try {
      await fixture.jsm.consumers.delete(fixture.streamName, consumer.name);
      const cardId = randomUUID();
      await inTransaction(fixture.pool, (tx) =>
        enqueueEvent(tx, CardCreated, cardCreatedPayload(cardId), { actor: userActor }),
      );

      await waitUntil(
        'the event is applied',
        async () => (await fixture.applied()).some((row) => row.card_id === cardId),
        30_000,
      );
      expect((await fixture.jsm.consumers.info(fixture.streamName, consumer.name)).name).toBe(consumer.name);
    } finally {
      await relay.stop();
      await consumer.stop();
    }
  });
});

describe('a stream deleted while running', () => {
  it('is created again by the relay, which then publishes the events that waited', async () => {
    const name = streamName();
    const subjectPrefix = `${fixture.subjectPrefix}r.`;
    const settings = { streamName: name, subjectPrefix };
    await ensureEventStream(fixture.nats, settings);
    const relay = startOutboxRelay({
      ...fixture,
      subjectPrefix,
      pollIntervalMs: 200,
      maxBackoffMs: 200,
      publishTimeoutMs: 1_000,
      ensureStream: () => ensureEventStream(fixture.nats, settings),
    });
    try {
      await fixture.jsm.streams.delete(name);
      await inTransaction(fixture.pool, (tx) =>
        enqueueEvent(tx, CardCreated, cardCreatedPayload(), { actor: userActor }),
      );

      await waitUntil(
        'the stream holds the event again',
        async () => (await fixture.jsm.streams.info(name).catch(() => undefined))?.state.messages === 1,
        20_000,
      );
    } finally {
      await relay.stop();
      await fixture.jsm.streams.delete(name).catch(() => undefined);
    }
  });
});

describe('connectNats', () => {
  let server: PrivateNatsServer;

  beforeAll(async () => {
    server = await startPrivateNatsServer();
    await server.stop();
  }, HOOK_TIMEOUT_MS);

  afterAll(async () => {
    await server?.dispose();
  }, HOOK_TIMEOUT_MS);

  it('waits for a NATS absent at start-up and connects once it answers', async () => {
    const connecting = connectNats(server.url, 'late', fixture.logger, { retryDelayMs: 100 });
    let connected = false;
    void connecting.then(() => (connected = true));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(connected).toBe(false);

    await server.start();
    const nc = await connecting;
    try {
      expect(nc.isClosed()).toBe(false);
    } finally {
      await nc.close();
      await server.stop();
    }
  });

  it('stops waiting when shutdown cancels it', async () => {
    const shutdown = new AbortController();
    const connecting = connectNats(server.url, 'cancelled', fixture.logger, {
      signal: shutdown.signal,
      retryDelayMs: 100,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    shutdown.abort(new Error('shutting down'));
    await expect(connecting).rejects.toThrow('shutting down');
  });
});
