// The practice queue (cards.listDue) and the dashboard's batched load, through the gateway, for a
// learner with 20,000 cards and 100,000 reviews in a database of 1,000,000 cards: p50 and p99 of each,
// printed with the data size, against the cheapest request of the same path (settings.getTimezone)
// as the baseline of what the gateway and a service call cost on their own.

import { recountReviewDays } from '@engram/cards/learner/study-days';
import { createPool } from '@engram/kit/db';
import type pg from 'pg';
import { startBenchStack, trpc } from './bench-stack.ts';
import { GC_FLUSH_MS, slowestThroughPauses } from './gc-pauses.ts';
import { type Measurement, measure, ms, ratioAgainst } from './measure.ts';

const TOTAL_CARDS = 1_000_000;
const LEARNER_CARDS = 20_000;
const LEARNER_REVIEWS = 100_000;
const OTHER_LEARNERS = 49;
const REQUESTS = 1_000;
// Requests before each measurement, while V8 compiles the path (after 30, listDue's p99 was 28 ms; after
// 100, 16 ms), so the p99 is of a warm server, out of enough requests to be more than a few outliers.
const WARM_UP = 100;

// Issue 24's target, a ratio within one run: the practice queue and the dashboard's batch answer with a p99 at
// most 3 times the baseline call's (what the gateway and one service call cost on their own).
const P99_TARGET = { atMost: 3 };

export const DASHBOARD = [
  'cards.progressMetrics',
  'cards.streak',
  'cards.reviewMetrics',
  'settings.getTimezone',
  'cards.list',
];
export const DASHBOARD_INPUT = { 4: { pageSize: 10, archived: false, cursor: null } };

async function seed(pool: pg.Pool, userId: string): Promise<void> {
  await pool.query(
    `INSERT INTO cards (id, owner_id, type, front, back, created_at, updated_at)
     SELECT gen_random_uuid(),
       CASE WHEN g <= $2 THEN $1 ELSE 'bench-other-' || (g % $3) END,
       'basic', 'front ' || g, 'back ' || g, now() - make_interval(secs => g), now()
     FROM generate_series(1, $4) g`,
    [userId, LEARNER_CARDS, OTHER_LEARNERS, TOTAL_CARDS],
  );
  // States and due dates spread like a learner's a few months in: a few hundred due today.
  await pool.query(
    `INSERT INTO review_items (id, card_id, owner_id, ordinal, state, due, stability, difficulty, reps, lapses, last_review)
     SELECT gen_random_uuid(), id, owner_id, 0, s.state,
       CASE WHEN s.state = 0 THEN created_at ELSE now() + make_interval(days => (random() * 90)::int - 1) END,
       CASE WHEN s.state = 0 THEN 0 ELSE 1 + random() * 60 END, CASE WHEN s.state = 0 THEN 0 ELSE 1 + random() * 9 END,
       CASE WHEN s.state = 0 THEN 0 ELSE 1 + (random() * 10)::int END, (random() * 2)::int,
       CASE WHEN s.state = 0 THEN NULL ELSE now() - make_interval(days => (random() * 30)::int) END
     FROM cards, LATERAL (
       -- Drawn per card: the reference to the card keeps PostgreSQL from drawing once for the whole table.
       SELECT CASE WHEN draw < 0.2 THEN 0 WHEN draw < 0.28 THEN 1 ELSE 2 END AS state
       FROM (SELECT random() AS draw WHERE cards.id IS NOT NULL) r
     ) s`,
  );
  await pool.query(
    `INSERT INTO review_logs (id, owner_id, item_id, card_id, rating, state_before, state_after, reviewed_at,
       duration_ms, elapsed_days, last_elapsed_days, scheduled_days, learning_step, due_after, previous, after)
     SELECT gen_random_uuid(), $1, i.id, i.card_id, 1 + (random() * 3)::int, 2, 2,
       now() - make_interval(secs => (random() * 365 * 86400)::int), 3000, 3, 3, 7, 0, now(), '{}', '{}'
     FROM review_items i, generate_series(1, $2) n
     WHERE i.owner_id = $1`,
    [userId, LEARNER_REVIEWS / LEARNER_CARDS],
  );
  // The reviews were written straight into the logs, so they are counted into the learner's days the way
  // the service recounts them after a change of timezone.
  const client = await pool.connect();
  try {
    await recountReviewDays(client, userId);
  } finally {
    client.release();
  }
  // Vacuumed as autovacuum would have by the time anyone looks, so the measurement does not race it.
  await pool.query('VACUUM ANALYZE');
}

export async function dashboardLoad(adminUrl: string): Promise<void> {
  const stack = await startBenchStack(adminUrl, {
    TRPC_RATE_LIMIT_PER_USER: '1000000',
    TRPC_RATE_LIMIT_PER_ADDRESS: '1000000',
  });
  const pool = createPool(stack.cardsDatabaseUrl, { max: 2 });
  try {
    const { cookie, userId } = await stack.signUp('heavy-learner');
    // No daily limit shortens the queue: listDue is measured at its longest (DUE_LIMIT items).
    await trpc(stack.url, cookie, 'settings.updatePreset', { newPerDay: 9999, reviewsPerDay: 9999 }, 'POST');
    const seeding = performance.now();
    await seed(pool, userId);
    console.log(
      `seeded ${TOTAL_CARDS} cards, ${LEARNER_CARDS} and ${LEARNER_REVIEWS} reviews of them the learner's, in ${((performance.now() - seeding) / 1000).toFixed(0)} s`,
    );
    const dashboardUrl = `${DASHBOARD.join(',')}?batch=1&input=${encodeURIComponent(JSON.stringify(DASHBOARD_INPUT))}`;
    const BASELINE = 'settings.getTimezone (baseline)';
    const LIST_DUE = 'cards.listDue';
    const BATCH = 'dashboard (5 queries, one batch)';
    const operations = {
      [BASELINE]: () => trpc(stack.url, cookie, 'settings.getTimezone'),
      [LIST_DUE]: () => trpc(stack.url, cookie, 'cards.listDue'),
      // The batch's parts one by one, to see which of them a slow batch waits for.
      '  cards.progressMetrics': () => trpc(stack.url, cookie, 'cards.progressMetrics'),
      '  cards.streak': () => trpc(stack.url, cookie, 'cards.streak'),
      '  cards.reviewMetrics': () => trpc(stack.url, cookie, 'cards.reviewMetrics'),
      '  cards.list': () => trpc(stack.url, cookie, 'cards.list', DASHBOARD_INPUT[4]),
      [BATCH]: () => trpc(stack.url, cookie, dashboardUrl),
    };
    const results: Record<string, Measurement> = {};
    for (const [name, operation] of Object.entries(operations)) {
      await measure(WARM_UP, 1, operation);
      const from = Date.now();
      const result = await measure(REQUESTS, 1, operation);
      const to = Date.now();
      results[name] = result;
      console.log(`${name.padEnd(34)} p50 ${ms(result.p50)}, p99 ${ms(result.p99)}`);
      // Each process writes down its pauses every GC_FLUSH_MS: those of the measured requests by then.
      await new Promise((resolve) => setTimeout(resolve, GC_FLUSH_MS + 100));
      console.log(
        `${' '.repeat(name.search(/\S/) + 2)}${slowestThroughPauses(result.slowest, stack.gcPauses(from, to), 'requests')}`,
      );
    }
    const baselineP99 = results[BASELINE]?.p99 ?? Number.NaN;
    for (const name of [LIST_DUE, BATCH]) {
      const ratio = (results[name]?.p99 ?? Number.NaN) / baselineP99;
      console.log(`p99 ratio ${name} / baseline: ${ratioAgainst(ratio, P99_TARGET)}`);
    }
  } finally {
    await pool.end();
    await stack.stop();
  }
}
