// Practising: due items, reviews recorded exactly once however often they are retried or raced (a review
// id means one review), undo (also when undos race each other), leeches, and the study day a review
// counts for while the learner changes their timezone.
import { randomUUID } from 'node:crypto';
import { ReviewRecorded } from '@engram/contracts/events';
import { CARD_ARCHIVED_MESSAGE, LEECH_LAPSES, REVIEW_REASONS } from '@engram/contracts/learning';
import { studyDayOf } from '@engram/contracts/study-day';
import { createPool } from '@engram/kit/db';
import { grpcFailure } from '@engram/testkit/grpc';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type CardsHarness, dayStartHalfADayAway, startCardsHarness } from '../harness.js';

let cards: CardsHarness;

beforeAll(async () => {
  cards = await startCardsHarness();
});
afterAll(() => cards?.stop());

/** A fresh learner with one basic card; returns the learner and the card's one review item. */
async function learnerWithOneCard(name: string) {
  const user = `${name}-${randomUUID().slice(0, 8)}`;
  const learner = cards.as(user);
  const { card } = await learner.createCard({ front: `Q of ${name}`, back: 'A' });
  const { items } = await learner.listDue();
  expect(items).toHaveLength(1);
  return { user, learner, card: card!, item: items[0]! };
}

const logsOf = async (itemId: string) =>
  (
    await cards.pool.query<{ id: string; rating: number; previous: { reps: number }; undone_at: Date | null }>(
      'SELECT id, rating, previous, undone_at FROM review_logs WHERE item_id = $1 ORDER BY reviewed_at',
      [itemId],
    )
  ).rows;

const itemRow = (id: string) => cards.db.reviewItem.findUniqueOrThrow({ where: { id } });

/**
 * A second connection of the test's own, holding rows in an open transaction, so the service's
 * transactions that need those rows can be seen waiting (untilWaiting) and then let go (release, which
 * rolls back whatever it wrote).
 */
async function lockHolder() {
  const pool = createPool(cards.databaseUrl, { applicationName: 'test-lock-holder', max: 1 });
  const client = await pool.connect();
  await client.query('BEGIN');
  return {
    lock: (sql: string, values: unknown[]) => client.query(sql, values),
    release: async () => {
      await client.query('ROLLBACK');
      client.release();
      await pool.end();
    },
  };
}

/** Until `count` of this database's backends wait for a lock while running a statement containing `text`. */
async function untilWaiting(count: number, text = '') {
  await vi.waitFor(
    async () => {
      const { rows } = await cards.pool.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE datname = current_database() AND wait_event_type = 'Lock' AND position($1 IN query) > 0`,
        [text],
      );
      expect(rows[0].n).toBe(count);
    },
    { timeout: 10_000, interval: 20 },
  );
}

const eventsOfType = async (type: string) =>
  (await cards.pool.query('SELECT count(*)::int AS n FROM outbox_events WHERE type = $1', [type])).rows[0].n as number;

describe('recording a review', () => {
  it('moves a new card into learning and logs the review with the event, in one transaction', async () => {
    const { learner, item } = await learnerWithOneCard('first');
    const reviewId = randomUUID();
    const { item: next } = await learner.review({ id: item.id, rating: 'good', reviewId, durationMs: 4200 });
    expect(next).toMatchObject({ state: 'learning', reps: 1, lapses: 0 });
    expect(next!.due!.getTime() - Date.now()).toBeGreaterThan(9 * 60_000);
    const [log] = await logsOf(item.id);
    expect(log).toMatchObject({ id: reviewId, rating: 3 });
    const recorded = (await cards.outboxEvents(ReviewRecorded)).filter(({ payload }) => payload.reviewId === reviewId);
    expect(recorded.map(({ payload }) => ({ itemId: payload.itemId, rating: payload.rating }))).toEqual([
      { itemId: item.id, rating: 'good' },
    ]);
  });

  it('records a retried review once and answers the retry with the same state', async () => {
    const { learner, item } = await learnerWithOneCard('retry');
    const request = { id: item.id, rating: 'easy', reviewId: randomUUID(), durationMs: 1000 };
    const first = await learner.review(request);
    const retry = await learner.review(request);
    expect(retry.item).toEqual(first.item);
    expect(await logsOf(item.id)).toHaveLength(1);
  });

  it('records the same review sent five times at once exactly once', async () => {
    const { learner, item } = await learnerWithOneCard('racing-retries');
    const request = { id: item.id, rating: 'good', reviewId: randomUUID(), durationMs: 800 };
    const answers = await Promise.all(Array.from({ length: 5 }, () => learner.review(request)));
    expect(new Set(answers.map((a) => JSON.stringify(a.item))).size).toBe(1);
    expect(await logsOf(item.id)).toHaveLength(1);
    expect(answers[0]?.item?.reps).toBe(1);
  });

  it('applies 20 simultaneous reviews of one card one after another, losing none', async () => {
    const { user, learner, item } = await learnerWithOneCard('concurrent');
    const recorded = () => eventsOfType('engram.cards.review.recorded');
    const eventsBefore = await recorded();
    const ratings = ['again', 'hard', 'good', 'easy'] as const;
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        learner.review({ id: item.id, rating: ratings[i % 4], reviewId: randomUUID(), durationMs: 500 }),
      ),
    );
    const logs = await logsOf(item.id);
    expect(logs).toHaveLength(20);
    // Each review saw the state the one before it left: the reps it replaced count up without a gap.
    expect(logs.map((log) => log.previous.reps)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    const stored = await cards.db.reviewItem.findUniqueOrThrow({ where: { id: item.id } });
    expect(stored.reps).toBe(20);
    // Each review committed its event and its count for the day with it, once.
    expect((await recorded()) - eventsBefore).toBe(20);
    const days = await cards.pool.query('SELECT sum(reviews)::int AS n FROM review_days WHERE owner_id = $1', [user]);
    expect(days.rows[0].n).toBe(20);
  });

  it('refuses a review id sent again with another rating or for another card, and changes nothing', async () => {
    const { learner, item } = await learnerWithOneCard('reused-id');
    const { card: other } = await learner.createCard({ front: 'another card', back: 'B' });
    const otherItem = (await learner.listDue()).items.find((due) => due.cardId === other?.id);
    const reviewId = randomUUID();
    const first = await learner.review({ id: item.id, rating: 'good', reviewId, durationMs: 1000 });
    const before = [await itemRow(item.id), await itemRow(otherItem!.id)];
    for (const reused of [
      { id: item.id, rating: 'again' },
      { id: otherItem!.id, rating: 'good' },
    ]) {
      const error = await grpcFailure(learner.review({ ...reused, reviewId, durationMs: 1000 }));
      expect(error.code).toBe(status.ALREADY_EXISTS);
      expect(error.reason).toBe('REVIEW_ID_REUSED');
      expect(error.message).toBe('This review id was already used for another review.');
    }
    expect([await itemRow(item.id), await itemRow(otherItem!.id)]).toEqual(before);
    expect(await logsOf(item.id)).toHaveLength(1);
    expect(await logsOf(otherItem!.id)).toHaveLength(0);
    // The review itself, sent again, still answers what it produced.
    expect(await learner.review({ id: item.id, rating: 'good', reviewId, durationMs: 1000 })).toEqual(first);
  });

  it('answers a retry with the state its review produced, even after later reviews of the card', async () => {
    const { learner, item } = await learnerWithOneCard('late-retry');
    const request = { id: item.id, rating: 'good', reviewId: randomUUID(), durationMs: 1000 };
    const first = await learner.review(request);
    await learner.review({ id: item.id, rating: 'easy', reviewId: randomUUID(), durationMs: 1000 });
    expect(await learner.review(request)).toEqual(first);
    expect((await itemRow(item.id)).reps).toBe(2);
    expect(await logsOf(item.id)).toHaveLength(2);
  });

  it('refuses a rating that is not one of the four, and changes nothing', async () => {
    const { learner, item } = await learnerWithOneCard('bad-rating');
    const error = await grpcFailure(
      learner.review({ id: item.id, rating: 'perfect', reviewId: randomUUID(), durationMs: 1 }),
    );
    expect(error.code).toBe(status.INVALID_ARGUMENT);
    expect(error.message).toBe('Rating must be again, hard, good or easy.');
    expect(await logsOf(item.id)).toHaveLength(0);
  });

  it('refuses a review of an archived card with its reason, and changes nothing until it is unarchived', async () => {
    const { learner, card, item } = await learnerWithOneCard('archived');
    await learner.archiveCard({ id: card.id, archived: true });
    const before = await itemRow(item.id);
    const review = { id: item.id, rating: 'good', reviewId: randomUUID(), durationMs: 1 };
    const error = await grpcFailure(learner.review(review));
    expect(error.code).toBe(status.FAILED_PRECONDITION);
    expect(error.reason).toBe(REVIEW_REASONS.cardArchived);
    expect(error.message).toBe(CARD_ARCHIVED_MESSAGE);
    expect(await itemRow(item.id)).toEqual(before);
    expect(await logsOf(item.id)).toHaveLength(0);

    await learner.archiveCard({ id: card.id, archived: false });
    expect((await learner.review(review)).item).toMatchObject({ state: 'learning', reps: 1 });
  });

  it("answers NOT_FOUND for an unknown item and for another learner's item, without internals", async () => {
    const { item } = await learnerWithOneCard('owner');
    const intruder = cards.as(`intruder-${randomUUID()}`);
    for (const id of [item.id, randomUUID()]) {
      const error = await grpcFailure(intruder.review({ id, rating: 'good', reviewId: randomUUID(), durationMs: 1 }));
      expect(error.code).toBe(status.NOT_FOUND);
      expect(error.message).toBe('Review item not found.');
    }
    expect(await logsOf(item.id)).toHaveLength(0);
  });
});

describe('undoing a review', () => {
  it('puts the item back exactly as it was and keeps the review out of everything', async () => {
    const { learner, item } = await learnerWithOneCard('undo');
    const before = await cards.db.reviewItem.findUniqueOrThrow({ where: { id: item.id } });
    const reviewId = randomUUID();
    await learner.review({ id: item.id, rating: 'easy', reviewId, durationMs: 900 });
    const undone = await learner.undoReview({ reviewId });
    expect(undone.item).toMatchObject({ state: 'new', reps: 0 });
    const after = await cards.db.reviewItem.findUniqueOrThrow({ where: { id: item.id } });
    expect(after).toEqual(before);
    expect((await learner.progressMetrics()).reviewedToday).toBe(0);
  });

  it('answers an undo sent twice the same, and a late retry of the undone review changes nothing', async () => {
    const { learner, item } = await learnerWithOneCard('undo-twice');
    const review = { id: item.id, rating: 'good', reviewId: randomUUID(), durationMs: 900 };
    await learner.review(review);
    const first = await learner.undoReview({ reviewId: review.reviewId });
    const second = await learner.undoReview({ reviewId: review.reviewId });
    expect(second).toEqual(first);
    await learner.review(review);
    expect((await cards.db.reviewItem.findUniqueOrThrow({ where: { id: item.id } })).reps).toBe(0);
  });

  it('refuses to undo a review that is not the latest of its card', async () => {
    const { learner, item } = await learnerWithOneCard('undo-old');
    const older = randomUUID();
    await learner.review({ id: item.id, rating: 'again', reviewId: older, durationMs: 1 });
    await learner.review({ id: item.id, rating: 'good', reviewId: randomUUID(), durationMs: 1 });
    const error = await grpcFailure(learner.undoReview({ reviewId: older }));
    expect(error.code).toBe(status.FAILED_PRECONDITION);
    expect(error.message).toBe('Only the latest review of a card can be undone.');
  });

  it('takes a review back once when two undos of it arrive at once, and answers both the same', async () => {
    const { user, learner, item } = await learnerWithOneCard('undo-race');
    await learner.review({ id: item.id, rating: 'good', reviewId: randomUUID(), durationMs: 1 });
    const afterFirst = await itemRow(item.id);
    const latest = randomUUID();
    await learner.review({ id: item.id, rating: 'easy', reviewId: latest, durationMs: 1 });
    const undoneEvents = () => eventsOfType('engram.cards.review.undone');
    const eventsBefore = await undoneEvents();
    // Another transaction holds the item, so both undos have begun before either decides.
    const holder = await lockHolder();
    await holder.lock('SELECT 1 FROM review_items WHERE id = $1 FOR UPDATE', [item.id]);
    const undos = [learner.undoReview({ reviewId: latest }), learner.undoReview({ reviewId: latest })];
    await untilWaiting(2, 'FROM review_items');
    await holder.release();
    const [first, second] = await Promise.all(undos);
    expect(second).toEqual(first);
    expect(await itemRow(item.id)).toEqual(afterFirst);
    expect((await logsOf(item.id)).map((log) => log.undone_at !== null)).toEqual([false, true]);
    expect((await undoneEvents()) - eventsBefore).toBe(1);
    const days = await cards.pool.query('SELECT sum(reviews)::int AS n FROM review_days WHERE owner_id = $1', [user]);
    expect(days.rows[0].n).toBe(1);
  });

  it('undoes the review applied last, even when the server that recorded the one before ran an hour ahead', async () => {
    const { learner, item } = await learnerWithOneCard('skewed-clock');
    const earlier = randomUUID();
    await learner.review({ id: item.id, rating: 'good', reviewId: earlier, durationMs: 1 });
    // The time a server whose clock runs an hour ahead gives its review.
    await cards.pool.query("UPDATE review_logs SET reviewed_at = reviewed_at + interval '1 hour' WHERE id = $1", [
      earlier,
    ]);
    const afterEarlier = await itemRow(item.id);
    const later = randomUUID();
    await learner.review({ id: item.id, rating: 'easy', reviewId: later, durationMs: 1 });
    const refused = await grpcFailure(learner.undoReview({ reviewId: earlier }));
    expect(refused.code).toBe(status.FAILED_PRECONDITION);
    await learner.undoReview({ reviewId: later });
    expect(await itemRow(item.id)).toEqual(afterEarlier);
  });

  it("answers NOT_FOUND for another learner's review", async () => {
    const { learner, item } = await learnerWithOneCard('undo-owner');
    const reviewId = randomUUID();
    await learner.review({ id: item.id, rating: 'good', reviewId, durationMs: 1 });
    const error = await grpcFailure(cards.as(`stranger-${randomUUID()}`).undoReview({ reviewId }));
    expect(error.code).toBe(status.NOT_FOUND);
    expect((await cards.db.reviewItem.findUniqueOrThrow({ where: { id: item.id } })).reps).toBe(1);
  });
});

describe('leeches', () => {
  it(`tags a card "leech" when it has been forgotten ${LEECH_LAPSES} times`, async () => {
    const { learner, card, item } = await learnerWithOneCard('leech');
    // Graduate it, then forget and relearn it again and again.
    await learner.review({ id: item.id, rating: 'easy', reviewId: randomUUID(), durationMs: 1 });
    let leech = false;
    for (let lapse = 1; lapse <= LEECH_LAPSES; lapse += 1) {
      const answer = await learner.review({ id: item.id, rating: 'again', reviewId: randomUUID(), durationMs: 1 });
      leech = answer.leech;
      expect(leech).toBe(lapse === LEECH_LAPSES);
      await learner.review({ id: item.id, rating: 'easy', reviewId: randomUUID(), durationMs: 1 });
    }
    const { items } = await learner.listCards();
    expect(items.find((c) => c.id === card.id)?.tags.map((t) => t.name)).toEqual(['leech']);
  });

  it('answers a retry of the review that made a card a leech with the leech, even after later reviews', async () => {
    const { learner, item } = await learnerWithOneCard('leech-retry');
    await learner.review({ id: item.id, rating: 'easy', reviewId: randomUUID(), durationMs: 1 });
    let leeching: { request: object; answer: object } | undefined;
    for (let lapse = 1; lapse <= LEECH_LAPSES; lapse += 1) {
      const request = { id: item.id, rating: 'again', reviewId: randomUUID(), durationMs: 1 };
      const answer = await learner.review(request);
      if (answer.leech) leeching = { request, answer };
      await learner.review({ id: item.id, rating: 'easy', reviewId: randomUUID(), durationMs: 1 });
    }
    expect(leeching?.answer).toMatchObject({ leech: true, item: { lapses: LEECH_LAPSES } });
    expect(await learner.review(leeching!.request)).toEqual(leeching!.answer);
  });
});

describe('the study day of a review', () => {
  it('counts a review racing a change of timezone into the day of the new timezone', async () => {
    const { user, learner, item } = await learnerWithOneCard('racing-timezone');
    const { card: second } = await learner.createCard({ front: 'second card', back: 'B' });
    const secondItem = (await learner.listDue()).items.find((due) => due.cardId === second?.id);
    // The learner's day (in UTC) is half gone; in Kiritimati (UTC+14) the same instant is two hours into
    // the next one.
    const dayStartHour = dayStartHalfADayAway();
    await learner.updateSettings({
      settings: { timezone: 'UTC', dayStartHour },
      fields: ['timezone', 'day_start_hour'],
    });
    await learner.review({ id: item.id, rating: 'good', reviewId: randomUUID(), durationMs: 1 });
    const [reviewedAt] = (await cards.pool.query('SELECT reviewed_at FROM review_logs WHERE item_id = $1', [item.id]))
      .rows;
    const newDay = studyDayOf(reviewedAt.reviewed_at, 'Pacific/Kiritimati', dayStartHour);
    expect(newDay).not.toBe(studyDayOf(reviewedAt.reviewed_at, 'UTC', dayStartHour));

    // The change of timezone writes the new settings and recounts the learner's days; holding the new
    // day's row keeps its recount from committing while a review arrives.
    const holder = await lockHolder();
    await holder.lock('INSERT INTO review_days VALUES ($1, $2, 0, 0, 0, 0, 0, 0, 0)', [user, newDay]);
    const change = learner.updateSettings({ settings: { timezone: 'Pacific/Kiritimati' }, fields: ['timezone'] });
    await untilWaiting(1, 'INSERT INTO review_days');
    const review = learner.review({ id: secondItem!.id, rating: 'good', reviewId: randomUUID(), durationMs: 1 });
    await untilWaiting(2, 'INSERT INTO review_days');
    await holder.release();
    await Promise.all([change, review]);

    const days = await cards.pool.query<{ day: string; reviews: number }>(
      "SELECT to_char(day, 'YYYY-MM-DD') AS day, reviews FROM review_days WHERE owner_id = $1",
      [user],
    );
    expect(days.rows).toEqual([{ day: newDay, reviews: 2 }]);
  });

  it('takes an undone review out of the day of the new timezone when the undo races the change', async () => {
    const { user, learner, item } = await learnerWithOneCard('undo-racing-timezone');
    const dayStartHour = dayStartHalfADayAway();
    await learner.updateSettings({
      settings: { timezone: 'UTC', dayStartHour },
      fields: ['timezone', 'day_start_hour'],
    });
    const reviewId = randomUUID();
    await learner.review({ id: item.id, rating: 'good', reviewId, durationMs: 1 });
    const [log] = (await cards.pool.query('SELECT reviewed_at FROM review_logs WHERE id = $1', [reviewId])).rows;
    const newDay = studyDayOf(log.reviewed_at, 'Pacific/Kiritimati', dayStartHour);
    expect(newDay).not.toBe(studyDayOf(log.reviewed_at, 'UTC', dayStartHour));

    const holder = await lockHolder();
    await holder.lock('INSERT INTO review_days VALUES ($1, $2, 0, 0, 0, 0, 0, 0, 0)', [user, newDay]);
    const change = learner.updateSettings({ settings: { timezone: 'Pacific/Kiritimati' }, fields: ['timezone'] });
    await untilWaiting(1, 'INSERT INTO review_days');
    const undo = learner.undoReview({ reviewId });
    await untilWaiting(2);
    await holder.release();
    await Promise.all([change, undo]);

    const days = await cards.pool.query<{ day: string; reviews: number }>(
      "SELECT to_char(day, 'YYYY-MM-DD') AS day, reviews FROM review_days WHERE owner_id = $1",
      [user],
    );
    expect(days.rows).toEqual([{ day: newDay, reviews: 0 }]);
  });
});
