// The outbox does not grow forever: published events past the retention period are deleted, and an
// event that was never published stays, however old it is.
import { randomUUID } from 'node:crypto';
import { prunePublishedEvents } from '@engram/kit/events/outbox-prune';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEventsFixture, type EventsFixture, HOOK_TIMEOUT_MS } from './events-fixture.ts';

let fixture: EventsFixture;

beforeAll(async () => {
  fixture = await createEventsFixture();
}, HOOK_TIMEOUT_MS);

afterAll(async () => {
  await fixture?.dispose();
}, HOOK_TIMEOUT_MS);

async function row(ageDays: number, published: boolean): Promise<string> {
  const id = randomUUID();
  await fixture.pool.query(
    `INSERT INTO outbox_events (id, type, payload, created_at, published_at)
     VALUES ($1, 'engram.test.thing.happened', '\\x00', now() - make_interval(days => $2), $3)`,
    [id, ageDays, published ? new Date(Date.now() - ageDays * 86_400_000) : null],
  );
  return id;
}

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
