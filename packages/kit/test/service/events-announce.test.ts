// Waking the relay after a commit (outbox-announce.ts): the writing transaction sends no NOTIFY of its
// own, so the transaction helpers announce committed events, and a relay that would otherwise poll only
// once a minute publishes them at once.
import { randomUUID } from 'node:crypto';
import { createPool, inTransaction } from '@engram/kit/db';
import { enqueueEvent, type PrismaRawExecutor, prismaTransaction } from '@engram/kit/events/outbox';
import { ANNOUNCE_GAP_MS, announceOutbox } from '@engram/kit/events/outbox-announce';
import { startOutboxRelay } from '@engram/kit/events/relay';
import { testContext } from '@engram/testkit/context';
import { schemaUrl } from '@engram/testkit/databases';
import type pg from 'pg';
import { afterEach, expect, it, vi } from 'vitest';
import { CardCreated, cardCreatedPayload, useEventsFixture, userActor, waitUntil } from '../events-fixture.ts';

const fixture = useEventsFixture();
const running: { stop(): Promise<void> }[] = [];

afterEach(async () => {
  for (const stoppable of running.splice(0)) await stoppable.stop();
});

const published = async () => (await fixture.jsm.streams.info(fixture.streamName)).state.messages;

const RELAY_APP = 'announce-test-relay';

/** A relay that polls once a minute, on a pool of its own, listening and idle before the test writes. */
async function idleRelay() {
  const schema = (await fixture.pool.query<{ s: string }>('SELECT current_schema() AS s')).rows[0]!.s;
  const pool = createPool(schemaUrl(testContext().databaseUrl, schema), { max: 3, applicationName: RELAY_APP });
  const relay = startOutboxRelay({ ...fixture, pool, pollIntervalMs: 60_000 });
  running.push({ stop: () => relay.stop().then(() => pool.end()) });
  // Listening, and done with the passes it makes at start and once listening.
  await waitUntil('the relay listens and is idle', async () => {
    const { rows } = await fixture.pool.query<{ listening: number; busy: number }>(
      `SELECT count(*) FILTER (WHERE query LIKE 'LISTEN %')::int AS listening,
         count(*) FILTER (WHERE state <> 'idle')::int AS busy
       FROM pg_stat_activity WHERE application_name = $1`,
      [RELAY_APP],
    );
    return rows[0]!.listening === 1 && rows[0]!.busy === 0;
  });
  return published();
}

/** Prisma's interactive transactions, as far as prismaTransaction uses them, on a pg pool. */
function prismaLike(pool: pg.Pool) {
  const executor = (client: Pick<pg.Pool, 'query'>): PrismaRawExecutor => ({
    $executeRawUnsafe: async (query, ...values) => (await client.query(query, values)).rowCount ?? 0,
  });
  return {
    ...executor(pool),
    $transaction: async <T>(work: (tx: PrismaRawExecutor) => Promise<T>) => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(executor(client));
        await client.query('COMMIT');
        return result;
      } finally {
        client.release();
      }
    },
  };
}

it('publishes an event as soon as the kit transaction that wrote it commits, not on the next poll', async () => {
  const before = await idleRelay();
  await inTransaction(fixture.pool, (tx) =>
    enqueueEvent(tx, CardCreated, cardCreatedPayload(randomUUID()), { actor: userActor }),
  );
  await waitUntil('the event is published', async () => (await published()) === before + 1, 10_000);
});

it('publishes an event written in a Prisma transaction as soon as it commits', async () => {
  const before = await idleRelay();
  await prismaTransaction(prismaLike(fixture.pool), (tx) =>
    enqueueEvent(tx, CardCreated, cardCreatedPayload(randomUUID()), { actor: userActor }),
  );
  await waitUntil('the event is published', async () => (await published()) === before + 1, 10_000);
});

it('publishes every event of many transactions committing at once', async () => {
  const before = await idleRelay();
  await Promise.all(
    Array.from({ length: 40 }, () =>
      inTransaction(fixture.pool, (tx) =>
        enqueueEvent(tx, CardCreated, cardCreatedPayload(randomUUID()), { actor: userActor }),
      ),
    ),
  );
  await waitUntil('all 40 are published', async () => (await published()) === before + 40, 10_000);
});

it('announces a burst of commits at once and once more when the gap is over, not once per commit', async () => {
  vi.useFakeTimers();
  try {
    let sent = 0;
    const pool = {
      query: async () => {
        sent += 1;
      },
    } as unknown as Pick<pg.Pool, 'query'>;
    for (let i = 0; i < 50; i += 1) announceOutbox(pool);
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toBe(1);
    await vi.advanceTimersByTimeAsync(ANNOUNCE_GAP_MS - 1);
    expect(sent).toBe(1);
    // The 49 commits made while the first was announced, in one more.
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toBe(2);
    await vi.advanceTimersByTimeAsync(ANNOUNCE_GAP_MS * 4);
    expect(sent).toBe(2);
    // A pool that has been quiet announces a commit at once.
    announceOutbox(pool);
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toBe(3);
  } finally {
    vi.useRealTimers();
  }
});
