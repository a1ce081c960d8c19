// The migration that gives review logs their order and outcome (review_log_order_and_outcome), applied to
// logs written before it: they are numbered in the order of their times, and each keeps what its review
// produced, so a retry of an old review and an undo of an item's latest review still answer rightly.
import { randomBytes, randomUUID } from 'node:crypto';
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPool } from '@engram/kit/db';
import { applyMigrations } from '@engram/kit/migrate';
import { testContext } from '@engram/testkit/context';
import { schemaUrl } from '@engram/testkit/databases';
import { afterAll, expect, it } from 'vitest';
import { CARDS_MIGRATIONS } from '../harness.js';

const MIGRATION = 'review_log_order_and_outcome';
const databaseUrl = schemaUrl(testContext().databaseUrl, `cards_logs_${randomBytes(4).toString('hex')}`);
const pool = createPool(databaseUrl, { max: 1 });
afterAll(() => pool.end());

/** The migrations folder as it was before MIGRATION. */
async function migrationsBefore(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cards-migrations-'));
  for (const name of await readdir(CARDS_MIGRATIONS)) {
    if (!name.endsWith(MIGRATION)) await cp(join(CARDS_MIGRATIONS, name), join(dir, name), { recursive: true });
  }
  return dir;
}

const memory = (reps: number, stability: number) => ({
  state: reps === 0 ? 'new' : 'review',
  due: '2026-11-20T10:00:00.000Z',
  stability,
  difficulty: 5,
  elapsedDays: 0,
  scheduledDays: reps,
  learningStep: 0,
  reps,
  lapses: 0,
  lastReview: reps === 0 ? null : '2026-11-19T10:00:00.000Z',
});

it('numbers the reviews logged before it by their times and keeps what each produced', async () => {
  const before = await migrationsBefore();
  try {
    await applyMigrations({ databaseUrl, migrationsDir: before });
  } finally {
    await rm(before, { recursive: true });
  }
  const owner = `legacy-${randomUUID()}`;
  const [cardId, itemId] = [randomUUID(), randomUUID()];
  await pool.query("INSERT INTO cards (id, owner_id, front, back, updated_at) VALUES ($1, $2, 'Q', 'A', now())", [
    cardId,
    owner,
  ]);
  // The item after its first review (stability 3), a second one undone, and a third (stability 9).
  await pool.query(
    `INSERT INTO review_items (id, card_id, owner_id, ordinal, state, due, stability, difficulty, reps, lapses,
       last_review)
     VALUES ($1, $2, $3, 0, 2, '2026-11-30T10:00:00Z', 9, 5, 2, 0, '2026-11-21T10:00:00Z')`,
    [itemId, cardId, owner],
  );
  const [first, undone, latest] = [randomUUID(), randomUUID(), randomUUID()];
  const log = (id: string, at: string, previous: object, undoneAt: string | null) =>
    pool.query(
      `INSERT INTO review_logs (id, owner_id, item_id, card_id, rating, state_before, state_after, reviewed_at,
         duration_ms, elapsed_days, last_elapsed_days, scheduled_days, learning_step, due_after, previous, undone_at)
       VALUES ($1, $2, $3, $4, 3, 2, 2, $5, 1000, 1, 1, 1, 0, '2026-11-25T10:00:00Z', $6, $7)`,
      [id, owner, itemId, cardId, at, JSON.stringify(previous), undoneAt],
    );
  // Written in another order than they happened.
  await log(latest, '2026-11-21T10:00:00Z', memory(1, 3), null);
  await log(first, '2026-11-19T10:00:00Z', memory(0, 0), null);
  await log(undone, '2026-11-20T10:00:00Z', memory(1, 3), '2026-11-20T10:05:00Z');

  await applyMigrations({ databaseUrl, migrationsDir: CARDS_MIGRATIONS });

  const { rows } = await pool.query('SELECT id, after FROM review_logs WHERE item_id = $1 ORDER BY seq', [itemId]);
  expect(rows.map((row) => row.id)).toEqual([first, undone, latest]);
  const [afterFirst, afterUndone, afterLatest] = rows.map((row) => row.after);
  // The first produced what the next review applied on top of it found.
  expect(afterFirst).toEqual(memory(1, 3));
  // The latest in force produced the item as it is.
  expect(afterLatest).toMatchObject({ state: 'review', reps: 2, stability: 9, due: '2026-11-30T10:00:00.000Z' });
  // The undone one left only what its log says: its state, due date, reps and time.
  expect(afterUndone).toMatchObject({
    state: 'review',
    due: '2026-11-25T10:00:00.000Z',
    reps: 2,
    lapses: 0,
    lastReview: '2026-11-20T10:00:00.000Z',
  });
  // Logs written after it are numbered after every older one.
  const next = await pool.query("SELECT nextval(pg_get_serial_sequence('review_logs', 'seq'))::int AS seq");
  expect(next.rows[0].seq).toBeGreaterThan(3);
});
