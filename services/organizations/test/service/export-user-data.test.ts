// The organizations service's part of a full data export (ExportUserData), called over gRPC as the gateway
// calls it: the learner's published decks, subscriptions, the assignments they created, memberships and
// progress on each shared deck they reviewed, and nothing of the other member of their organization. The rows
// are written as the service's handlers and consumers write them (the read models come from events).
import { randomUUID } from 'node:crypto';
import { createClient, unary } from '@engram/kit/grpc/client';
import { CardsServiceClient } from '@engram/proto/cards/v1/cards';
import { IdentityServiceClient } from '@engram/proto/identity/v1/identity';
import { OrganizationsServiceClient } from '@engram/proto/organizations/v1/organizations';
import { startServiceUnderTest } from '@engram/testkit/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/db.js';
import { organizationsService } from '../../src/server.js';

// Exporting asks neither identity nor cards: their clients point nowhere.
const NOWHERE = '127.0.0.1:1';

let service: Awaited<ReturnType<typeof startOrganizations>>;
let db: Db;

function startOrganizations() {
  return startServiceUnderTest({
    service: 'organizations',
    migrationsDir: new URL('../../prisma/migrations', import.meta.url).pathname,
    start({ databaseUrl, serverOptions, logger }) {
      const client = createDb(databaseUrl, logger);
      const identity = createClient(IdentityServiceClient, NOWHERE);
      const cards = createClient(CardsServiceClient, NOWHERE);
      return {
        services: [organizationsService({ db: client, identity, cards }, { ...serverOptions, version: 'test' })],
        resources: client,
        async close() {
          identity.close();
          cards.close();
          await client.$disconnect();
        },
      };
    },
  });
}

beforeAll(async () => {
  service = await startOrganizations();
  db = service.resources;
});
afterAll(() => service?.stop());

/** The part as the test reads it: the fields it looks into by name, the rest as they come. */
interface OrganizationsPart {
  memberships: unknown[];
  publishedDecks: unknown[];
  subscriptions: { deckId: string }[];
  assignmentsCreated: unknown[];
  progress: { deckId: string }[];
}

async function exportOf(userId: string) {
  const client = service.client(OrganizationsServiceClient);
  const { json } = await unary(client, client.exportUserData, {}, { token: await service.tokenFor(userId) });
  return { json, part: JSON.parse(json) as OrganizationsPart };
}

async function deckOf(publisherId: string, organizationId: string, name: string, cards: number) {
  const deck = await db.deck.create({ data: { organizationId, name, publisherId, sourceTagId: randomUUID() } });
  await db.deckCard.createMany({
    data: Array.from({ length: cards }, (_, index) => ({
      deckId: deck.id,
      originCardId: `${name}-${index}`,
      type: 'basic',
      front: `front ${index}`,
      back: `back ${index}`,
      revision: 1n,
    })),
  });
  return deck;
}

async function reviewed(deckId: string, userId: string, count: number, stateAfter = 'review') {
  await db.deckReview.createMany({
    data: Array.from({ length: count }, (_, index) => ({
      reviewId: randomUUID(),
      deckId,
      userId,
      cardId: `card-${index}`,
      itemId: `item-${index}`,
      rating: 'good',
      stateBefore: 'new',
      stateAfter,
      reviewedAt: new Date(Date.now() - (count - index) * 60_000),
    })),
  });
}

/** Ann and Bruno in one organization and team, each publishing a deck the other subscribes to and reviews. */
async function twoMembers() {
  const ann = `ann-${randomUUID()}`;
  const bruno = `bruno-${randomUUID()}`;
  const organizationId = `org-${randomUUID()}`;
  const teamId = `team-${randomUUID()}`;
  await db.member.createMany({
    data: [
      { organizationId, userId: ann, role: 'admin' },
      { organizationId, userId: bruno, role: 'owner' },
    ],
  });
  await db.teamMember.createMany({
    data: [
      { teamId, userId: ann, organizationId },
      { teamId, userId: bruno, organizationId },
    ],
  });
  const annsDeck = await deckOf(ann, organizationId, 'Irregular verbs', 3);
  const brunosDeck = await deckOf(bruno, organizationId, 'Bruno private notes', 5);
  await db.subscription.createMany({
    data: [
      { deckId: annsDeck.id, userId: bruno },
      { deckId: brunosDeck.id, userId: ann },
    ],
  });
  const dueAt = new Date(Date.now() + 7 * 86_400_000);
  const annsAssignment = await db.assignment.create({
    data: {
      organizationId,
      deckId: brunosDeck.id,
      teamId,
      dueAt,
      targetKind: 'cards_learned',
      targetValue: 4,
      createdBy: ann,
    },
  });
  const brunosAssignment = await db.assignment.create({
    data: { organizationId, deckId: annsDeck.id, dueAt, targetKind: 'retention', targetValue: 0.9, createdBy: bruno },
  });
  await reviewed(brunosDeck.id, ann, 2);
  await reviewed(annsDeck.id, bruno, 3);
  await reviewed(brunosDeck.id, bruno, 4);
  return { ann, bruno, organizationId, teamId, annsDeck, brunosDeck, annsAssignment, brunosAssignment };
}

describe("a learner's part of the data export", () => {
  it('holds their published decks, subscriptions, assignments, memberships and progress', async () => {
    const { ann, organizationId, teamId, annsDeck, brunosDeck, annsAssignment } = await twoMembers();
    const { part } = await exportOf(ann);
    expect(part.memberships).toEqual([
      { organizationId, roles: ['admin'], joinedAt: expect.any(String), teamIds: [teamId] },
    ]);
    expect(part.publishedDecks).toEqual([
      expect.objectContaining({ id: annsDeck.id, name: 'Irregular verbs', cardCount: 3, subscriberCount: 1 }),
    ]);
    expect(part.subscriptions).toEqual([
      expect.objectContaining({ deckId: brunosDeck.id, deckName: 'Bruno private notes', organizationId }),
    ]);
    expect(part.assignmentsCreated).toEqual([
      expect.objectContaining({
        id: annsAssignment.id,
        deckId: brunosDeck.id,
        teamId,
        target: { kind: 'cards_learned', value: 4 },
      }),
    ]);
    expect(part.progress).toEqual([
      expect.objectContaining({ deckId: brunosDeck.id, reviews: 2, cardsLearned: 2, cardCount: 5 }),
    ]);
  });

  it("holds nothing of another member's: not their id, assignments, reviews or subscription", async () => {
    const { ann, bruno, annsDeck, brunosAssignment } = await twoMembers();
    const { json, part } = await exportOf(ann);
    expect(json).not.toContain(bruno);
    expect(json).not.toContain(brunosAssignment.id);
    expect(part.progress.map((row) => row.deckId)).not.toContain(annsDeck.id);
    expect(part.subscriptions.map((row) => row.deckId)).not.toContain(annsDeck.id);
  });

  it('is empty for a learner the service knows nothing about', async () => {
    expect((await exportOf(`nobody-${randomUUID()}`)).part).toEqual({
      memberships: [],
      publishedDecks: [],
      subscriptions: [],
      assignmentsCreated: [],
      progress: [],
    });
  });
});
