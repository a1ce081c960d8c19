// Reviews done on a device without the network, synced later: each recorded exactly once at its own time,
// in the order they happened, and what cannot be applied answered as a conflict that changes nothing.
import { randomUUID } from 'node:crypto';
import { ReviewRecorded, ReviewRestated } from '@engram/contracts/events';
import { SYNC_BATCH_MAX, SYNC_CLOCK_SKEW_MS, SYNC_MAX_AGE_DAYS, syncReviewsInput } from '@engram/contracts/offline';
import { addDays, studyDayOf, studyDayStart } from '@engram/contracts/study-day';
import { createPool } from '@engram/kit/db';
import { EventEnvelope } from '@engram/proto/events/v1/envelope';
import { grpcFailure } from '@engram/testkit/grpc';
import { status } from '@grpc/grpc-js';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { settingsLockKey } from '../../src/learner/study-days.js';
import { syncReviews } from '../../src/review/sync-reviews.js';
import { type CardsCaller, type CardsHarness, startCardsHarness } from '../harness.js';

let cards: CardsHarness;

beforeAll(async () => {
  cards = await startCardsHarness();
});
afterAll(() => cards?.stop());

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const TZ = 'America/Sao_Paulo';

/**
 * A learner in São Paulo whose days start at local midnight, with `count` new cards made a month ago (so any review
 * time a sync takes comes after them, unless `madeNow`); their items.
 */
async function learnerWithCards(name: string, count: number, { madeNow = false } = {}) {
  const user = `${name}-${randomUUID().slice(0, 8)}`;
  const learner = cards.as(user);
  await learner.updateSettings({
    fields: ['timezone', 'day_start_hour'],
    settings: { timezone: TZ, dayStartHour: 0 },
  });
  await learner.createCards({ cards: Array.from({ length: count }, (_, n) => ({ front: `Q${n}`, back: `A${n}` })) });
  if (!madeNow) {
    await cards.pool.query(`UPDATE cards SET created_at = now() - make_interval(days => $2) WHERE owner_id = $1`, [
      user,
      SYNC_MAX_AGE_DAYS + 1,
    ]);
  }
  const { items } = await learner.listDue();
  expect(items).toHaveLength(count);
  return { user, learner, items };
}

/** The start of yesterday in São Paulo (local midnight): a day boundary with a day's room after it. */
const lastMidnight = () => studyDayStart(addDays(studyDayOf(new Date(), TZ, 0), -1), TZ, 0).getTime();

const offline = (id: string, rating: string, reviewedAt: number) => ({
  reviewId: randomUUID(),
  id,
  rating,
  durationMs: 4000,
  reviewedAt: new Date(reviewedAt),
});

const logsOf = async (user: string) =>
  (
    await cards.pool.query<{ id: string; item_id: string; rating: number; state_before: number; reviewed_at: Date }>(
      'SELECT id, item_id::text, rating::int, state_before::int, reviewed_at FROM review_logs WHERE owner_id = $1 ORDER BY reviewed_at',
      [user],
    )
  ).rows;

const daysOf = async (user: string) =>
  (
    await cards.pool.query<{ day: string; reviews: number; good: number; again: number; mature: number }>(
      "SELECT to_char(day, 'YYYY-MM-DD') AS day, reviews, good, again, mature FROM review_days WHERE owner_id = $1 ORDER BY day",
      [user],
    )
  ).rows;

/** Until a backend of this database waits for a lock while running a statement containing `text`. */
async function untilWaiting(text: string) {
  await vi.waitFor(
    async () => {
      const { rows } = await cards.pool.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE datname = current_database() AND wait_event_type = 'Lock' AND position($1 IN query) > 0`,
        [text],
      );
      expect(rows[0].n).toBe(1);
    },
    { timeout: 10_000, interval: 20 },
  );
}

/** The learner's days as their logs count them (in São Paulo, from midnight): what review_days must hold. */
const recountedDaysOf = async (user: string) =>
  (
    await cards.pool.query<{ day: string; reviews: number; good: number; again: number; mature: number }>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, count(*)::int AS reviews, count(*) FILTER (WHERE rating = 3)::int AS good,
         count(*) FILTER (WHERE rating = 1)::int AS again, count(*) FILTER (WHERE state_before = 2)::int AS mature
       FROM (SELECT (reviewed_at AT TIME ZONE $2)::date AS day, rating, state_before
             FROM review_logs WHERE owner_id = $1 AND undone_at IS NULL) logs
       GROUP BY day ORDER BY day`,
      [user, TZ],
    )
  ).rows;

/**
 * What the user's review events told other services (organizations keeps it for shared decks): each review's
 * states before and after, as ReviewRecorded said and any later ReviewRestated corrected, in the order reviewed;
 * and how many restatements there were.
 */
async function toldOf(user: string) {
  const { rows } = await cards.pool.query<{ type: string; payload: Buffer }>(
    'SELECT type, payload FROM outbox_events WHERE type = ANY($1) ORDER BY seq',
    [[ReviewRecorded.subject, ReviewRestated.subject]],
  );
  const states = new Map<string, [string, string]>();
  let restatements = 0;
  for (const row of rows) {
    const event = row.type === ReviewRecorded.subject ? ReviewRecorded : ReviewRestated;
    const told = event.message.decode(EventEnvelope.decode(row.payload).payload);
    if (told.ownerId !== user) continue;
    if (event === ReviewRestated) restatements += 1;
    states.set(told.reviewId, [told.stateBefore, told.stateAfter]);
  }
  return { states: (await logsOf(user)).map((log) => states.get(log.id)), restatements };
}

const itemOf = async (itemId: string) =>
  (
    await cards.pool.query(
      'SELECT state, due, stability, difficulty, reps, lapses, last_review, learning_step FROM review_items WHERE id = $1',
      [itemId],
    )
  ).rows[0];

describe('syncing reviews done offline', () => {
  it('records each review at the time it was done, on the learner’s day of that time, and answers the item’s state', async () => {
    const { user, learner, items } = await learnerWithCards('offline', 3);
    const midnight = lastMidnight();
    const reviews = [
      offline(items[0]!.id, 'good', midnight - 20 * MINUTE),
      offline(items[1]!.id, 'again', midnight - 5 * MINUTE),
      offline(items[2]!.id, 'easy', midnight + 10 * MINUTE),
    ];
    const { results } = await learner.syncReviews({ reviews });
    expect(results.map((result) => [result.reviewId, result.status])).toEqual(
      reviews.map((review) => [review.reviewId, 'recorded']),
    );
    expect(results.map((result) => result.item?.lastReview)).toEqual(reviews.map((review) => review.reviewedAt));
    expect(results[2]!.item).toMatchObject({ state: 'review', reps: 1 });
    expect(results[2]!.item!.due!.getTime()).toBeGreaterThan(midnight + 24 * 60 * MINUTE);

    const logs = await logsOf(user);
    expect(logs.map((log) => [log.id, log.reviewed_at])).toEqual(
      reviews.map((review) => [review.reviewId, review.reviewedAt]),
    );
    const before = studyDayOf(new Date(midnight - MINUTE), TZ, 0);
    const after = studyDayOf(new Date(midnight + MINUTE), TZ, 0);
    expect(await daysOf(user)).toEqual([
      { day: before, reviews: 2, good: 1, again: 1, mature: 0 },
      { day: after, reviews: 1, good: 0, again: 0, mature: 0 },
    ]);
    expect(await itemOf(items[2]!.id)).toMatchObject({ last_review: reviews[2]!.reviewedAt, reps: 1 });
  });

  it('changes nothing when the same queue is sent again, answering each review as a duplicate', async () => {
    const { user, learner, items } = await learnerWithCards('retried', 2);
    const start = Date.now() - 60 * MINUTE;
    const reviews = [offline(items[0]!.id, 'good', start), offline(items[1]!.id, 'hard', start + MINUTE)];
    const first = await learner.syncReviews({ reviews });
    const stored = [await itemOf(items[0]!.id), await itemOf(items[1]!.id), await daysOf(user)];
    const again = await learner.syncReviews({ reviews });
    expect(again.results.map((result) => result.status)).toEqual(['duplicate', 'duplicate']);
    expect(again.results.map((result) => result.item)).toEqual(first.results.map((result) => result.item));
    expect([await itemOf(items[0]!.id), await itemOf(items[1]!.id), await daysOf(user)]).toEqual(stored);
    expect(await logsOf(user)).toHaveLength(2);
  });

  it('applies a batch in the order the reviews were done, whatever order they come in', async () => {
    const inOrder = await learnerWithCards('in-order', 1);
    const shuffled = await learnerWithCards('shuffled', 1);
    const start = Date.now() - 3 * 60 * MINUTE;
    const ratings = ['again', 'good', 'good', 'easy'];
    const batch = (itemId: string) => ratings.map((rating, n) => offline(itemId, rating, start + n * 20 * MINUTE));
    await inOrder.learner.syncReviews({ reviews: batch(inOrder.items[0]!.id) });
    const reversed = batch(shuffled.items[0]!.id).reverse();
    const { results } = await shuffled.learner.syncReviews({ reviews: reversed });
    expect(results.map((result) => result.status)).toEqual(['recorded', 'recorded', 'recorded', 'recorded']);
    expect(await itemOf(shuffled.items[0]!.id)).toEqual(await itemOf(inOrder.items[0]!.id));
    // Answered in the order sent: the first answer is the last review's, the item's state now.
    expect(results[0]!.item!.lastReview).toEqual(reversed[0]!.reviewedAt);
  });

  it('counts the same card reviewed offline on two devices twice, in the order the reviews were done, and tells other services each review’s states as corrected', async () => {
    // One learner's two devices: the phone reviewed the card first but syncs last.
    const twoDevices = await learnerWithCards('two-devices', 1);
    const oneDevice = await learnerWithCards('one-device', 1);
    const start = Date.now() - 4 * 60 * MINUTE;
    const plan = [
      ['good', start],
      ['again', start + 30 * MINUTE],
      ['good', start + 60 * MINUTE],
      ['good', start + 90 * MINUTE],
    ] as const;
    const phone = [0, 2].map((n) => offline(twoDevices.items[0]!.id, plan[n]![0], plan[n]![1]));
    const laptop = [1, 3].map((n) => offline(twoDevices.items[0]!.id, plan[n]![0], plan[n]![1]));
    await twoDevices.learner.syncReviews({ reviews: laptop });
    const late = await twoDevices.learner.syncReviews({ reviews: phone });
    expect(late.results.map((result) => result.status)).toEqual(['recorded', 'recorded']);
    await oneDevice.learner.syncReviews({
      reviews: plan.map(([rating, at]) => offline(oneDevice.items[0]!.id, rating, at)),
    });

    // The same state, logs and days as if one device had done all four in order.
    expect(await itemOf(twoDevices.items[0]!.id)).toEqual(await itemOf(oneDevice.items[0]!.id));
    const history = async (user: string) =>
      (await logsOf(user)).map(({ rating, state_before, reviewed_at }) => [rating, state_before, reviewed_at]);
    expect(await history(twoDevices.user)).toEqual(await history(oneDevice.user));
    expect(await daysOf(twoDevices.user)).toEqual(await daysOf(oneDevice.user));
    // Each review's state before and after it, as an undo puts back (a new card's due is when it was made).
    const states = async (user: string) =>
      (
        await cards.pool.query('SELECT previous, after FROM review_logs WHERE owner_id = $1 ORDER BY reviewed_at', [
          user,
        ])
      ).rows.map(({ previous, after }) => ({
        previous: { ...previous, due: previous.reps ? previous.due : 'new' },
        after,
      }));
    expect(await states(twoDevices.user)).toEqual(await states(oneDevice.user));
    // Other services were told the same: the laptop's reviews, synced first, were restated once the phone's came.
    const told = await toldOf(twoDevices.user);
    expect(told.states).toEqual((await toldOf(oneDevice.user)).states);
    expect(told.restatements).toBeGreaterThan(0);
    expect((await toldOf(oneDevice.user)).restatements).toBe(0);

    // Undoing the latest review (the laptop's) puts back the state the phone's late review left.
    const undone = await twoDevices.learner.undoReview({ reviewId: laptop[1]!.reviewId });
    expect(undone.item!.lastReview).toEqual(phone[1]!.reviewedAt);
  });

  it('records a review of a card edited meanwhile, and answers a card deleted or archived meanwhile as a conflict that stores nothing', async () => {
    const { user, learner, items } = await learnerWithCards('changed', 3);
    const [archived, edited, deleted] = items as [(typeof items)[0], (typeof items)[0], (typeof items)[0]];
    const before = await itemOf(archived.id);
    await learner.archiveCard({ id: archived.cardId, archived: true });
    await learner.updateCard({ id: edited.cardId, fields: ['front'], front: 'Q1, reworded' });
    await learner.deleteCard({ id: deleted.cardId });
    const at = Date.now() - 30 * MINUTE;
    const reviews = [
      offline(archived.id, 'good', at),
      offline(edited.id, 'good', at + 1),
      offline(deleted.id, 'good', at + 2),
    ];
    const { results } = await learner.syncReviews({ reviews });
    expect(results.map(({ status: s, reason, message }) => [s, reason, message])).toEqual([
      ['conflict', 'CARD_ARCHIVED', 'This card was archived, so the review could not be kept.'],
      ['recorded', '', ''],
      ['conflict', 'ITEM_NOT_FOUND', 'This card was deleted, so the review could not be kept.'],
    ]);
    expect(results[0]!.item).toBeUndefined();
    expect(results[2]!.item).toBeUndefined();
    expect((await logsOf(user)).map((log) => log.item_id)).toEqual([edited.id]);
    expect(await itemOf(archived.id)).toEqual(before);
    expect(await daysOf(user)).toEqual([expect.objectContaining({ reviews: 1 })]);
  });

  it("never applies a review to another learner's card, and says only that the card is not there", async () => {
    const victim = await learnerWithCards('victim', 1);
    const attacker = await learnerWithCards('attacker', 1);
    const before = await itemOf(victim.items[0]!.id);
    const { results } = await attacker.learner.syncReviews({
      reviews: [offline(victim.items[0]!.id, 'easy', Date.now() - MINUTE)],
    });
    expect(results[0]).toMatchObject({ status: 'conflict', reason: 'ITEM_NOT_FOUND' });
    expect(await itemOf(victim.items[0]!.id)).toEqual(before);
    expect(await logsOf(victim.user)).toEqual([]);
    expect(await logsOf(attacker.user)).toEqual([]);
  });

  it('refuses a review time in the future or older than the sync allows, and one whose id names another review', async () => {
    const { user, learner, items } = await learnerWithCards('times', 4);
    const now = Date.now();
    const kept = offline(items[3]!.id, 'good', now - MINUTE);
    await learner.syncReviews({ reviews: [kept] });
    const { results } = await learner.syncReviews({
      reviews: [
        offline(items[0]!.id, 'good', now + 60 * MINUTE),
        offline(items[1]!.id, 'good', now - (SYNC_MAX_AGE_DAYS + 1) * 24 * 60 * MINUTE),
        // A device clock two minutes fast: counted as now.
        offline(items[2]!.id, 'good', now + 2 * MINUTE),
        { ...kept, rating: 'easy' },
      ],
    });
    expect(results.map(({ status: s, reason, message }) => [s, reason, message])).toEqual([
      ['conflict', 'REVIEW_IN_FUTURE', 'The review time is in the future; check the device clock.'],
      ['conflict', 'REVIEW_TOO_OLD', `Reviews older than ${SYNC_MAX_AGE_DAYS} days cannot be synced.`],
      ['recorded', '', ''],
      ['conflict', 'REVIEW_ID_REUSED', 'This review id was already used for another review.'],
    ]);
    const logs = await logsOf(user);
    expect(logs.map((log) => log.item_id)).toEqual([items[3]!.id, items[2]!.id]);
    expect(logs[1]!.reviewed_at.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('answers one review id sent for two cards by two syncs at once: one recorded, the other refused, no error', async () => {
    const { user, learner, items } = await learnerWithCards('racing', 2);
    const first = offline(items[0]!.id, 'good', Date.now() - MINUTE);
    const second = { ...first, id: items[1]!.id };
    // The learner's days held, so each sync waits there with its logs written and not committed: the second's log
    // waits on the first's, which then commits first.
    const holder = createPool(cards.databaseUrl, { max: 1 });
    const held = await holder.connect();
    await held.query('BEGIN');
    await held.query('SELECT pg_advisory_xact_lock(hashtext($1))', [settingsLockKey(user)]);
    const firstSync = learner.syncReviews({ reviews: [first] });
    await untilWaiting('INSERT INTO review_days');
    const secondSync = learner.syncReviews({ reviews: [second] });
    await untilWaiting('INSERT INTO review_logs');
    await held.query('ROLLBACK');
    held.release();
    await holder.end();
    const answers = [(await firstSync).results[0], (await secondSync).results[0]];
    expect(answers.map((answer) => [answer?.status, answer?.reason])).toEqual([
      ['recorded', ''],
      ['conflict', 'REVIEW_ID_REUSED'],
    ]);
    expect((await logsOf(user)).map((log) => log.item_id)).toEqual([items[0]!.id]);
  });

  it('refuses a malformed batch whole, with the reason, and stores nothing', async () => {
    const { user, learner, items } = await learnerWithCards('malformed', 1);
    const one = offline(items[0]!.id, 'good', Date.now() - MINUTE);
    const cases: [Parameters<CardsCaller['syncReviews']>[0], string][] = [
      [{ reviews: [] }, 'Send at least one review to sync.'],
      [
        { reviews: Array.from({ length: SYNC_BATCH_MAX + 1 }, () => one) },
        `Send at most ${SYNC_BATCH_MAX} reviews at once.`,
      ],
      [
        { reviews: [one, { ...one, reviewId: randomUUID(), reviewedAt: undefined }] },
        'Review time must be a date and time.',
      ],
      [
        { reviews: [one, { ...one, reviewId: randomUUID(), rating: 'meh' }] },
        'Rating must be again, hard, good or easy.',
      ],
    ];
    for (const [request, message] of cases) {
      const error = await grpcFailure(learner.syncReviews(request));
      expect(error.code).toBe(status.INVALID_ARGUMENT);
      expect(error.message).toContain(message);
    }
    expect(await logsOf(user)).toEqual([]);
  });
});

describe('reviews dated before their card existed', () => {
  it('refuses each with its reason, so a new card brings no history and no streak of the days before it', async () => {
    const { user, learner, items } = await learnerWithCards('new-account', 1, { madeNow: true });
    const now = Date.now();
    const reviews = Array.from({ length: 29 }, (_, n) => offline(items[0]!.id, 'good', now - (29 - n) * DAY));
    const { results } = await learner.syncReviews({ reviews });
    expect(results.map(({ status: s, reason, message }) => [s, reason, message])).toEqual(
      reviews.map(() => [
        'conflict',
        'REVIEW_BEFORE_CARD',
        'The review time is before this card was made; check the device clock.',
      ]),
    );
    expect(results.every((result) => result.item === undefined)).toBe(true);
    expect(await logsOf(user)).toEqual([]);
    expect(await daysOf(user)).toEqual([]);
    expect(await itemOf(items[0]!.id)).toMatchObject({ reps: 0, last_review: null });
    expect(await learner.streak()).toMatchObject({ current: 0, longest: 0 });
  });

  it('counts a review timed within a device clock’s skew before its card was made, at its time', async () => {
    const { user, learner, items } = await learnerWithCards('slow-clock', 1, { madeNow: true });
    const { rows } = await cards.pool.query<{ created_at: Date }>('SELECT created_at FROM cards WHERE owner_id = $1', [
      user,
    ]);
    const made = rows[0]!.created_at.getTime();
    const slow = offline(items[0]!.id, 'good', made - SYNC_CLOCK_SKEW_MS + MINUTE);
    const tooSlow = offline(items[0]!.id, 'good', made - SYNC_CLOCK_SKEW_MS - MINUTE);
    const { results } = await learner.syncReviews({ reviews: [slow, tooSlow] });
    expect(results.map((result) => [result.status, result.reason])).toEqual([
      ['recorded', ''],
      ['conflict', 'REVIEW_BEFORE_CARD'],
    ]);
    expect((await logsOf(user)).map((log) => [log.id, log.reviewed_at])).toEqual([[slow.reviewId, slow.reviewedAt]]);
  });
});

/** `pool`, counting the statements sent through it and the connections it lends (but the relay's wake-up call). */
function countingStatements(pool: pg.Pool) {
  let statements = 0;
  const count = (query: unknown) => {
    const text = typeof query === 'string' ? query : (query as { text?: string }).text;
    if (!text?.includes('pg_notify')) statements += 1;
  };
  const counted = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(object, key) {
        const value: unknown = Reflect.get(object, key, object);
        if (typeof value !== 'function') return value;
        if (key === 'query') {
          return (query: unknown, ...rest: unknown[]) => {
            count(query);
            return value.call(object, query, ...rest);
          };
        }
        if (key === 'connect') return async () => counted(await value.call(object));
        return value.bind(object);
      },
    });
  return { pool: counted(pool), statements: () => statements };
}

describe('a sync of many reviews of one card done before its latest ones', () => {
  /**
   * A learner whose one card has 50 reviews over the last days (5 of them forgotten: no leech); the statements a sync
   * of `late` earlier ones took.
   */
  async function placeLate(late: number) {
    const { user, learner, items } = await learnerWithCards(`late-${late}`, 1);
    const itemId = items[0]!.id;
    const start = Date.now() - 20 * DAY;
    const stored = Array.from({ length: 50 }, (_, n) =>
      offline(itemId, n % 10 ? 'good' : 'again', start + 10 * DAY + n * HOUR),
    );
    await learner.syncReviews({ reviews: stored });
    const earlier = Array.from({ length: late }, (_, n) => offline(itemId, n % 5 ? 'good' : 'hard', start + n * HOUR));
    const counting = countingStatements(cards.pool);
    const { results } = await syncReviews(counting.pool, user, syncReviewsInput.parse({ reviews: earlier }));
    expect(results.map((result) => result.status)).toEqual(earlier.map(() => 'recorded'));
    return { user, itemId, stored, statements: counting.statements() };
  }

  it('places 50 in as many statements as 2: the card’s history is replayed once, and each table written once', async () => {
    const two = await placeLate(2);
    const fifty = await placeLate(50);
    expect(fifty.statements).toBe(two.statements);
    expect(fifty.statements).toBeLessThanOrEqual(12);

    // Every review counts, in the order of their times, which is also the order an undo takes them back in.
    const { rows } = await cards.pool.query<{ id: string }>(
      'SELECT id FROM review_logs WHERE item_id = $1 ORDER BY seq',
      [fifty.itemId],
    );
    expect(rows.map((row) => row.id)).toEqual((await logsOf(fifty.user)).map((log) => log.id));
    expect(rows).toHaveLength(100);
    expect(await itemOf(fifty.itemId)).toMatchObject({ reps: 100, last_review: fifty.stored.at(-1)!.reviewedAt });
    const days = await daysOf(fifty.user);
    expect(days.reduce((sum, day) => sum + day.reviews, 0)).toBe(100);
    expect(await daysOf(fifty.user)).toEqual(await recountedDaysOf(fifty.user));
  });
});
