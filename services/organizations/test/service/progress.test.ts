// Progress as owners see it, counted in SQL from the review read model: reviews, cards learned (by each
// review item's latest state), retention of cards in review, and the streak of UTC days up to today or
// yesterday; and whether an assignment's target is met.
import { randomUUID } from 'node:crypto';
import { startServiceUnderTest } from '@engram/testkit/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/db.js';
import { LEARNED_BY, progressOf, progressPerDeck } from '../../src/domain/progress.js';

let service: Awaited<ReturnType<typeof startDb>>;
let db: Db;

function startDb() {
  return startServiceUnderTest({
    service: 'organizations',
    migrationsDir: new URL('../../prisma/migrations', import.meta.url).pathname,
    start({ databaseUrl, logger }) {
      const client = createDb(databaseUrl, logger);
      return { services: [], resources: client, close: () => client.$disconnect() };
    },
  });
}

beforeAll(async () => {
  service = await startDb();
  db = service.resources;
});
afterAll(() => service?.stop());

const DAY = 86_400_000;
/** A moment `days` UTC days before today, `minutes` after that day's midnight (never in the future). */
const daysAgo = (days: number, minutes = 0) => {
  const today = Math.floor(Date.now() / DAY) * DAY;
  return new Date(Math.min(today - days * DAY + minutes * 60_000, Date.now()));
};

async function deckWithCards(count: number) {
  const deck = await db.deck.create({
    data: { organizationId: `org-${randomUUID()}`, name: 'Cells', publisherId: 'owner', sourceTagId: randomUUID() },
  });
  await db.deckCard.createMany({
    data: Array.from({ length: count }, (_, index) => ({
      deckId: deck.id,
      originCardId: `card-${index}`,
      type: 'basic',
      front: `front ${index}`,
      back: `back ${index}`,
      revision: 1n,
      withdrawn: index === count - 1,
    })),
  });
  return deck;
}

interface Review {
  card: string;
  rating?: string;
  before?: string;
  after: string;
  at: Date;
  item?: string;
}

async function reviewed(deckId: string, userId: string, reviews: Review[]) {
  await db.deckReview.createMany({
    data: reviews.map((review) => ({
      reviewId: randomUUID(),
      deckId,
      userId,
      cardId: review.card,
      itemId: review.item ?? `${review.card}-item`,
      rating: review.rating ?? 'good',
      stateBefore: review.before ?? 'new',
      stateAfter: review.after,
      reviewedAt: review.at,
    })),
  });
}

describe('a member’s progress on a deck', () => {
  it('counts reviews, cards that reached review by their latest state, retention and the streak', async () => {
    const deck = await deckWithCards(4);
    await reviewed(deck.id, 'ana', [
      { card: 'a', after: 'learning', at: daysAgo(3) },
      { card: 'a', before: 'learning', after: 'review', at: daysAgo(2) },
      { card: 'b', after: 'review', at: daysAgo(1) },
      // Reviewed in review: recalled once, forgotten once (b lapsed: it is no longer learned).
      { card: 'a', before: 'review', after: 'review', rating: 'good', at: daysAgo(0, 1) },
      { card: 'b', before: 'review', after: 'relearning', rating: 'again', at: daysAgo(0, 2) },
    ]);
    const [ana] = await progressOf(db, [deck.id], ['ana'], { kind: 'cards_learned', value: 1 });
    expect(ana).toMatchObject({
      userId: 'ana',
      reviews: 5,
      cardsLearned: 1,
      cardCount: 3,
      retention: 0.5,
      streakDays: 4,
      targetMet: true,
    });
  });

  it('breaks the streak on a day without reviews, and keeps it through yesterday', async () => {
    const deck = await deckWithCards(2);
    await reviewed(deck.id, 'bo', [
      { card: 'a', after: 'learning', at: daysAgo(5) },
      { card: 'a', after: 'learning', at: daysAgo(2) },
      { card: 'a', after: 'learning', at: daysAgo(1) },
    ]);
    await reviewed(deck.id, 'cy', [{ card: 'a', after: 'learning', at: daysAgo(3) }]);
    const rows = await progressOf(db, [deck.id], ['bo', 'cy']);
    expect(rows.map((row) => [row.userId, row.streakDays])).toEqual([
      ['bo', 2],
      ['cy', 0],
    ]);
  });

  it('answers zeros for a member without reviews, with no retention yet and the target not met', async () => {
    const deck = await deckWithCards(3);
    const [dee] = await progressOf(db, [deck.id], ['dee'], { kind: 'retention', value: 0.9 });
    expect(dee).toMatchObject({ reviews: 0, cardsLearned: 0, cardCount: 2, streakDays: 0, targetMet: false });
    expect(dee?.retention).toBeUndefined();
  });

  it('counts only the given decks and members', async () => {
    const mine = await deckWithCards(2);
    const other = await deckWithCards(2);
    await reviewed(mine.id, 'eve', [{ card: 'a', after: 'review', at: daysAgo(0) }]);
    await reviewed(other.id, 'eve', [{ card: 'z', after: 'review', at: daysAgo(0) }]);
    await reviewed(mine.id, 'fay', [{ card: 'a', after: 'review', at: daysAgo(0) }]);
    const [eve] = await progressOf(db, [mine.id], ['eve']);
    expect(eve).toMatchObject({ reviews: 1, cardsLearned: 1 });
  });
});

describe('a member’s progress on each of their assignments’ decks', () => {
  it('counts each deck on its own, and zeros for a deck not started', async () => {
    const cells = await deckWithCards(3);
    const atoms = await deckWithCards(4);
    const untouched = await deckWithCards(2);
    await reviewed(cells.id, 'gus', [
      { card: 'a', after: 'review', at: daysAgo(1) },
      { card: 'a', before: 'review', after: 'review', at: daysAgo(0) },
    ]);
    await reviewed(atoms.id, 'gus', [{ card: 'x', after: 'learning', at: daysAgo(3) }]);
    await reviewed(atoms.id, 'hal', [{ card: 'x', after: 'review', at: daysAgo(0) }]);
    const progress = await progressPerDeck(db, [cells.id, atoms.id, untouched.id], 'gus');
    expect(progress.get(cells.id)).toMatchObject({
      reviews: 2,
      cardsLearned: 1,
      cardCount: 2,
      retention: 1,
      streakDays: 2,
    });
    expect(progress.get(atoms.id)).toMatchObject({ reviews: 1, cardsLearned: 0, cardCount: 3, streakDays: 0 });
    expect(progress.get(untouched.id)).toMatchObject({ reviews: 0, cardsLearned: 0, cardCount: 1, streakDays: 0 });
  });
});

interface PlanNode {
  'Node Type': string;
  'Join Type'?: string;
  Plans?: PlanNode[];
}

const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];

describe('counting progress over a long history', () => {
  it('sorts no member’s whole history of reviews, only each item’s latest', async () => {
    const deck = await deckWithCards(3);
    const history = Array.from({ length: 400 }, (_, index) => ({
      card: ['a', 'b', 'c'][index % 3] as string,
      after: index % 2 ? 'review' : 'learning',
      at: daysAgo(30, index),
    }));
    await reviewed(deck.id, 'ivy', history);
    await db.$executeRawUnsafe('ANALYZE deck_reviews');
    for (const key of ['user_id', 'deck_id'] as const) {
      const [explained] = await db.$queryRawUnsafe<{ 'QUERY PLAN': [{ Plan: PlanNode }] }[]>(
        `EXPLAIN (FORMAT JSON) ${LEARNED_BY(key)}`,
        [deck.id],
        ['ivy'],
      );
      const plan = explained?.['QUERY PLAN'][0].Plan as PlanNode;
      const sorts = nodes(plan).filter((node) => node['Node Type'].endsWith('Sort'));
      // A sort, if any, only above the anti-join that kept each item's latest review.
      for (const sort of sorts) expect(nodes(sort).some((node) => node['Join Type'] === 'Anti')).toBe(true);
    }
    const [ivy] = await progressOf(db, [deck.id], ['ivy']);
    // The last reviews: index 397 (b, review), 398 (c, learning), 399 (a, review).
    expect(ivy).toMatchObject({ reviews: 400, cardsLearned: 2 });
  });
});
