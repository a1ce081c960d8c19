// Progress counts the reviews of a deck's copies by the members of its organization only: a reviewer who is not a
// member (never was, or has left), or a review dated before its reviewer joined, adds nothing to anyone's progress.
// Identity's and cards' events are published on the stream as their relays would, and the service consumes them as
// main.ts runs it (real PostgreSQL and NATS).
import { randomUUID } from 'node:crypto';
import { MemberAdded, MemberRemoved, ReviewRecorded } from '@engram/contracts/events';
import type { ReviewRecorded as ReviewRecordedPayload } from '@engram/proto/events/v1/cards';
import { startServiceUnderTest } from '@engram/testkit/service';
import { publishEvent } from '@engram/testkit/streams';
import { waitUntil } from '@engram/testkit/wait';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/db.js';
import { progressOf } from '../../src/domain/progress.js';
import { organizationsEvents } from '../../src/events/index.js';

let service: Awaited<ReturnType<typeof startOrganizations>>;
let db: Db;

function startOrganizations() {
  return startServiceUnderTest({
    service: 'organizations',
    migrationsDir: new URL('../../prisma/migrations', import.meta.url).pathname,
    events: {},
    start({ databaseUrl, logger }) {
      const client = createDb(databaseUrl, logger);
      return {
        services: [],
        resources: client,
        events: organizationsEvents(client),
        close: () => client.$disconnect(),
      };
    },
  });
}

beforeAll(async () => {
  service = await startOrganizations();
  db = service.resources;
  await service.events!.ready;
}, 60_000);
afterAll(() => service?.stop());

const DAY = 86_400_000;

/** Publishes an event as identity's or cards' relay would; resolves once organizations' consumer applied it. */
async function deliver<T>(event: Parameters<typeof publishEvent<T>>[2], payload: T): Promise<void> {
  const { natsUrl, settings } = service.events!;
  const id = await publishEvent(natsUrl, settings.subjectPrefix, event, payload);
  await waitUntil(`${event.subject} ${id} is applied`, async () => {
    const applied = await db.processedEvent.count({ where: { eventId: id } });
    return applied === 1;
  });
}

/** An organization with a deck of one card. */
async function organizationWithDeck() {
  const organizationId = `org-${randomUUID()}`;
  const deck = await db.deck.create({
    data: { organizationId, name: 'Cells', publisherId: 'owner', sourceTagId: randomUUID() },
  });
  await db.deckCard.create({
    data: {
      deckId: deck.id,
      originCardId: 'card-1',
      type: 'basic',
      front: 'What is a cell?',
      back: 'Life',
      revision: 1n,
    },
  });
  const join = (userId: string) =>
    deliver(MemberAdded, { organizationId, userId, memberId: randomUUID(), role: 'member' });
  const leave = (userId: string) => deliver(MemberRemoved, { organizationId, userId, memberId: randomUUID() });
  return { organizationId, deck, join, leave };
}

/** `userId`'s review of their copy of `deckId`'s card, done at `at`, as cards tells it. */
const review = (deckId: string, userId: string, at = new Date()): ReviewRecordedPayload => ({
  reviewId: randomUUID(),
  ownerId: userId,
  cardId: randomUUID(),
  itemId: `${userId}-item`,
  rating: 'good',
  stateBefore: 'new',
  stateAfter: 'learning',
  reviewedAt: at,
  durationMs: 2000,
  due: new Date(at.getTime() + 600_000),
  lapses: 0,
  deckId,
});

const reviewsOf = async (deckId: string, userId: string) => (await progressOf(db, [deckId], [userId]))[0]?.reviews ?? 0;

describe("the reviews an organization's progress counts", () => {
  it('counts a member’s review of their copy of a deck', async () => {
    const { deck, join } = await organizationWithDeck();
    const ana = `ana-${randomUUID()}`;
    await join(ana);
    await deliver(ReviewRecorded, review(deck.id, ana));
    expect(await reviewsOf(deck.id, ana)).toBe(1);
  });

  it('counts nothing of a reviewer who is not a member of the organization', async () => {
    const { deck } = await organizationWithDeck();
    const stranger = `stranger-${randomUUID()}`;
    await deliver(ReviewRecorded, review(deck.id, stranger));
    expect(await db.deckReview.count({ where: { userId: stranger } })).toBe(0);
    expect(await reviewsOf(deck.id, stranger)).toBe(0);
  });

  it('counts nothing of a member who has left, and nothing a device dated before the reviewer joined', async () => {
    const { deck, join, leave } = await organizationWithDeck();
    const bo = `bo-${randomUUID()}`;
    await join(bo);
    await deliver(ReviewRecorded, review(deck.id, bo));
    await deliver(ReviewRecorded, review(deck.id, bo, new Date(Date.now() - DAY)));
    expect(await reviewsOf(deck.id, bo)).toBe(1);

    await leave(bo);
    await deliver(ReviewRecorded, review(deck.id, bo));
    expect(await db.deckReview.count({ where: { userId: bo } })).toBe(1);
  });
});
