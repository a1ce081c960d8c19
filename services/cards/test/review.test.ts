// Practising: due items, reviews recorded exactly once however often they are retried or raced, undo,
// and leeches.
import { randomUUID } from 'node:crypto';
import { LEECH_LAPSES } from '@engram/contracts/learning';
import { grpcFailure } from '@engram/testkit/grpc';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CardsHarness, startCardsHarness } from './harness.js';

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
    const events = await cards.pool.query(
      "SELECT 1 FROM outbox_events WHERE type = 'engram.cards.review.recorded' AND headers IS NOT NULL",
    );
    expect(events.rowCount).toBeGreaterThan(0);
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

  it('refuses a rating that is not one of the four, and changes nothing', async () => {
    const { learner, item } = await learnerWithOneCard('bad-rating');
    const error = await grpcFailure(
      learner.review({ id: item.id, rating: 'perfect', reviewId: randomUUID(), durationMs: 1 }),
    );
    expect(error.code).toBe(status.INVALID_ARGUMENT);
    expect(error.message).toBe('Rating must be again, hard, good or easy.');
    expect(await logsOf(item.id)).toHaveLength(0);
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
});
