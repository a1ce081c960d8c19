// Syncing reviews done offline when they come late (cards.syncReviews' own code on a pg pool): 50 reviews of one card
// dated before the 50 it already has (a second device's, synced last) against 50 dated after them (in order), each
// on a card of its own with the same history. A late review places itself among the card's reviews and schedules
// those after it again; the ratio late ÷ in order says what that costs. Issue 41 measured 19.3 s against 1.8 s (each
// late review replayed the card's whole later history, a statement per review); a sync now replays it once.
import { randomUUID } from 'node:crypto';
import { syncReviews } from '@engram/cards/review/sync-reviews';
import { RATINGS } from '@engram/contracts/learning';
import { syncReviewsInput } from '@engram/contracts/offline';
import { createPool } from '@engram/kit/db';
import { applyMigrations } from '@engram/kit/migrate';
import type pg from 'pg';
import { withDatabase } from './bench-database.ts';
import { median, ms, ratioAgainst, timed } from './measure.ts';

const REVIEWS = 50;
const ROUNDS = 7;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// Placing 50 reviews before 50 others schedules 100 where in order 50 are: twice the work at most.
const LATE_TARGET = { atMost: 2 };

const OWNER = 'bench-sync';

/** `count` new cards of the learner, made a month ago (a sync takes no review dated before its card); their items. */
async function newItems(pool: pg.Pool, count: number): Promise<string[]> {
  const { rows } = await pool.query<{ id: string }>(
    `WITH made AS (
       INSERT INTO cards (id, owner_id, front, back, created_at, updated_at)
       SELECT gen_random_uuid(), $1, 'front ' || g, 'back', now() - interval '31 days', now()
       FROM generate_series(1, $2) g RETURNING id)
     INSERT INTO review_items (id, card_id, owner_id, ordinal, due)
     SELECT gen_random_uuid(), id, $1, 0, now() - interval '31 days' FROM made RETURNING id::text`,
    [OWNER, count],
  );
  return rows.map((row) => row.id);
}

/** `REVIEWS` reviews of `itemId`, an hour apart from `from` (ms), as a device syncs them. */
const reviewsOf = (itemId: string, from: number) =>
  syncReviewsInput.parse({
    reviews: Array.from({ length: REVIEWS }, (_, n) => ({
      reviewId: randomUUID(),
      id: itemId,
      rating: RATINGS[n % 7 ? 2 : n % 3],
      durationMs: 3000,
      reviewedAt: new Date(from + n * HOUR),
    })),
  });

/** One round: two cards with the same 50 reviews, then 50 more synced after them on one and before them on the other. */
async function round(pool: pg.Pool): Promise<{ inOrder: number; late: number }> {
  const start = Date.now() - 20 * DAY;
  const [inOrderItem, lateItem] = (await newItems(pool, 2)) as [string, string];
  for (const itemId of [inOrderItem, lateItem]) await syncReviews(pool, OWNER, reviewsOf(itemId, start + 10 * DAY));
  const inOrder = await timed(() => syncReviews(pool, OWNER, reviewsOf(inOrderItem, start + 15 * DAY)));
  const late = await timed(() => syncReviews(pool, OWNER, reviewsOf(lateItem, start)));
  return { inOrder, late };
}

export async function lateSync(adminUrl: string): Promise<void> {
  await withDatabase(adminUrl, async (databaseUrl) => {
    const pool = createPool(databaseUrl, { max: 4 });
    try {
      await applyMigrations({
        databaseUrl,
        migrationsDir: new URL('../services/cards/prisma/migrations', import.meta.url).pathname,
      });
      // While V8 compiles the path.
      await round(pool);
      const rounds: { inOrder: number; late: number }[] = [];
      for (let n = 0; n < ROUNDS; n += 1) rounds.push(await round(pool));
      const inOrder = median(rounds.map((one) => one.inOrder));
      const late = median(rounds.map((one) => one.late));
      console.log(`cards.syncReviews, ${REVIEWS} reviews of a card after its ${REVIEWS} (in order): ${ms(inOrder)}`);
      console.log(`the same ${REVIEWS} dated before its ${REVIEWS} (late):                 ${ms(late)}`);
      console.log(`  (medians of ${ROUNDS} rounds, each on cards of its own)`);
      console.log(`ratio late/in order: ${ratioAgainst(late / inOrder, LATE_TARGET)}`);
    } finally {
      await pool.end();
    }
  });
}
