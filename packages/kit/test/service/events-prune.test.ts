// The outbox does not grow forever: published events past the retention period are deleted, and an
// event that was never published stays, however old it is. Consumers' records of applied events go once
// the stream no longer keeps those events. Only the replica holding the relay lock prunes, beside the
// publish loop.
import { randomUUID } from 'node:crypto';
import { pruneEvents, prunePublishedEvents } from '@engram/kit/events/outbox-prune';
import { TAKE_RELAY_LOCK } from '@engram/kit/events/outbox-publisher';
import { startOutboxRelay } from '@engram/kit/events/relay';
import { beforeEach, expect, it } from 'vitest';
import { inTransaction, useEventsFixture, waitUntil } from '../events-fixture.ts';

const fixture = useEventsFixture();

async function row(ageDays: number, published: boolean): Promise<string> {
  const id = randomUUID();
  await fixture.pool.query(
    `INSERT INTO outbox_events (id, type, payload, created_at, published_at)
     VALUES ($1, 'engram.test.thing.happened', '\\x00', now() - make_interval(days => $2), $3)`,
    [id, ageDays, published ? new Date(Date.now() - ageDays * 86_400_000) : null],
  );
  return id;
}

beforeEach(async () => {
  await fixture.pool.query('TRUNCATE outbox_events, processed_events');
});

async function processed(ageDays: number): Promise<string> {
  const id = randomUUID();
  await fixture.pool.query(
    `INSERT INTO processed_events (consumer, event_id, processed_at)
     VALUES ('cards-test', $1, now() - make_interval(days => $2))`,
    [id, ageDays],
  );
  return id;
}

const ids = async (table: 'outbox_events' | 'processed_events') =>
  (
    await fixture.pool.query<{ id: string }>(
      `SELECT ${table === 'outbox_events' ? 'id' : 'event_id'} AS id FROM ${table}`,
    )
  ).rows.map((r) => r.id);

it('deletes published events older than the retention and keeps the rest', async () => {
  const oldPublished = await row(8, true);
  const recentPublished = await row(1, true);
  const oldUnpublished = await row(30, false);

  expect(await prunePublishedEvents(fixture.pool, 7 * 86_400_000)).toBe(1);

  const { rows } = await fixture.pool.query<{ id: string }>('SELECT id FROM outbox_events');
  const left = rows.map((r) => r.id);
  expect(left).not.toContain(oldPublished);
  expect(left).toEqual(expect.arrayContaining([recentPublished, oldUnpublished]));
});

it("deletes consumers' records of events older than the stream keeps, and keeps them all when it keeps events for ever", async () => {
  const old = await processed(31);
  const recent = await processed(2);

  expect(await pruneEvents(fixture.pool, { processedRetentionMs: 0 })).toMatchObject({ processed: 0 });
  expect(await ids('processed_events')).toHaveLength(2);

  const result = await pruneEvents(fixture.pool, { processedRetentionMs: 30 * 86_400_000 });

  expect(result).toEqual({ outbox: 0, processed: 1, records: 0, lockHeld: true });
  expect(await ids('processed_events')).toEqual([recent]);
  expect(await ids('processed_events')).not.toContain(old);
});

it('prunes only what a service without an outbox has (a consumer with no relay)', async () => {
  const oldPublished = await row(30, true);
  const oldApplied = await processed(40);
  const result = await pruneEvents(fixture.pool, { outbox: false, processedRetentionMs: 30 * 86_400_000 });
  expect(result).toMatchObject({ outbox: 0, processed: 1, lockHeld: true });
  expect(await ids('outbox_events')).toEqual([oldPublished]);
  expect(await ids('processed_events')).not.toContain(oldApplied);
});

it('leaves pruning to the replica that holds the relay lock', async () => {
  const oldPublished = await row(8, true);
  const oldProcessed = await processed(31);
  const options = { outboxRetentionMs: 7 * 86_400_000, processedRetentionMs: 30 * 86_400_000 };

  await inTransaction(fixture.pool, async (relayReplica) => {
    expect((await relayReplica.query(TAKE_RELAY_LOCK)).rows[0].locked).toBe(true);
    expect(await pruneEvents(fixture.pool, options)).toEqual({ outbox: 0, processed: 0, records: 0, lockHeld: false });
  });
  expect(await ids('outbox_events')).toContain(oldPublished);
  expect(await ids('processed_events')).toContain(oldProcessed);

  expect(await pruneEvents(fixture.pool, options)).toEqual({ outbox: 1, processed: 1, records: 0, lockHeld: true });
});

it("deletes a service's retained records past their retention and keeps the fresh ones", async () => {
  await fixture.pool.query(
    'CREATE TABLE IF NOT EXISTS idempotency_keys (key text PRIMARY KEY, created_at timestamptz NOT NULL)',
  );
  await fixture.pool.query('TRUNCATE idempotency_keys');
  await fixture.pool.query(
    `INSERT INTO idempotency_keys VALUES ('stale', now() - interval '25 hours'), ('fresh', now() - interval '23 hours')`,
  );
  const records = [{ table: 'idempotency_keys', column: 'created_at', retentionMs: 24 * 3_600_000 }];

  expect(await pruneEvents(fixture.pool, { records })).toMatchObject({ records: 1, lockHeld: true });

  const { rows } = await fixture.pool.query<{ key: string }>('SELECT key FROM idempotency_keys');
  expect(rows.map((r) => r.key)).toEqual(['fresh']);
  await expect(
    pruneEvents(fixture.pool, { records: [{ table: 'keys; DROP TABLE x', column: 'created_at', retentionMs: 1 }] }),
  ).rejects.toThrow(/plain table and column names/);
});

it('has the relay prune on its own schedule while it runs', async () => {
  const oldPublished = await row(8, true);
  const unpublished = await row(9, false);
  const relay = startOutboxRelay({ ...fixture, pollIntervalMs: 200, pruneIntervalMs: 100 });
  try {
    await waitUntil(
      'the old published event is pruned',
      async () => !(await ids('outbox_events')).includes(oldPublished),
    );
    // The unpublished one was published by the publish loop meanwhile, not deleted.
    await waitUntil('the unpublished event is published', async () => {
      const { rows } = await fixture.pool.query('SELECT published_at FROM outbox_events WHERE id = $1', [unpublished]);
      return rows[0]?.published_at !== null && rows.length === 1;
    });
  } finally {
    await relay.stop();
  }
});

it('finds published and processed rows by time through an index', async () => {
  const { rows } = await fixture.pool.query<{ indexname: string; indexdef: string }>(
    'SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() ORDER BY indexname',
  );
  const byName = Object.fromEntries(rows.map((r) => [r.indexname, r.indexdef]));
  expect(byName.outbox_events_published_at_idx).toMatch(/\(published_at\) WHERE \(published_at IS NOT NULL\)/);
  expect(byName.processed_events_processed_at_idx).toMatch(/\(processed_at\)/);
});
