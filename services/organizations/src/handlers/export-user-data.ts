// ExportUserData: what the organizations service holds about the caller, their part of a full data export (the
// gateway gathers it for cards' export job): the decks they published, the decks they subscribe to, the
// assignments they created, their memberships as identity last announced them, and their progress on each
// shared deck they reviewed. Counts, never rows, of other people: a deck's subscribers are a number. A
// published deck's card snapshot and the single reviews of deck copies are the caller's own cards and
// reviews, which cards' part of the export holds in full.
import type { CallContext } from '@engram/kit/grpc/server';
import type { ExportUserDataRequest, ExportUserDataResponse } from '@engram/proto/organizations/v1/organizations';
import type { Db } from '../db.js';
import type { OrganizationsDeps } from '../deps.js';
import { deckMessages } from '../domain/decks.js';
import { progressPerDeck } from '../domain/progress.js';

async function publishedDecks(db: Db, userId: string) {
  const decks = await db.deck.findMany({ where: { publisherId: userId }, orderBy: { createdAt: 'asc' } });
  return (await deckMessages(db, decks, userId)).map((deck) => ({
    id: deck.id,
    organizationId: deck.organizationId,
    teamId: deck.teamId || null,
    name: deck.name,
    description: deck.description,
    cardCount: deck.cardCount,
    subscriberCount: deck.subscriberCount,
    publishedAt: deck.createdAt,
    updatedAt: deck.updatedAt,
  }));
}

async function subscriptions(db: Db, userId: string) {
  const rows = await db.subscription.findMany({
    where: { userId },
    include: { deck: true },
    orderBy: { createdAt: 'asc' },
  });
  return rows.map((row) => ({
    deckId: row.deckId,
    deckName: row.deck.name,
    organizationId: row.deck.organizationId,
    subscribedAt: row.createdAt,
  }));
}

async function assignmentsCreated(db: Db, userId: string) {
  const rows = await db.assignment.findMany({
    where: { createdBy: userId },
    include: { deck: true },
    orderBy: { createdAt: 'asc' },
  });
  return rows.map((row) => ({
    id: row.id,
    organizationId: row.organizationId,
    deckId: row.deckId,
    deckName: row.deck.name,
    teamId: row.teamId,
    dueAt: row.dueAt,
    target: { kind: row.targetKind, value: row.targetValue },
    createdAt: row.createdAt,
  }));
}

async function memberships(db: Db, userId: string) {
  const [members, teams] = await Promise.all([
    db.member.findMany({ where: { userId }, orderBy: { joinedAt: 'asc' } }),
    db.teamMember.findMany({ where: { userId } }),
  ]);
  return members.map((member) => ({
    organizationId: member.organizationId,
    roles: member.role.split(',').map((role) => role.trim()),
    joinedAt: member.joinedAt,
    teamIds: teams.filter((team) => team.organizationId === member.organizationId).map((team) => team.teamId),
  }));
}

/** Per shared deck the caller reviewed (a deck since deleted keeps its reviews here, without a name). */
async function progress(db: Db, userId: string) {
  const reviewed = await db.deckReview.groupBy({
    by: ['deckId'],
    where: { userId },
    _min: { reviewedAt: true },
    orderBy: { deckId: 'asc' },
  });
  const deckIds = reviewed.map((row) => row.deckId);
  const [decks, perDeck] = await Promise.all([
    db.deck.findMany({ where: { id: { in: deckIds } }, select: { id: true, name: true, organizationId: true } }),
    progressPerDeck(db, deckIds, userId),
  ]);
  const deckOf = new Map(decks.map((deck) => [deck.id, deck]));
  return reviewed.map((row) => {
    const deck = deckOf.get(row.deckId);
    const counts = perDeck.get(row.deckId);
    return {
      deckId: row.deckId,
      deckName: deck?.name ?? null,
      organizationId: deck?.organizationId ?? null,
      reviews: counts?.reviews ?? 0,
      cardsLearned: counts?.cardsLearned ?? 0,
      cardCount: counts?.cardCount ?? 0,
      retention: counts?.retention ?? null,
      streakDays: counts?.streakDays ?? 0,
      firstReviewedAt: row._min.reviewedAt,
      lastReviewedAt: counts?.lastReviewedAt ?? null,
    };
  });
}

export function exportUserData({ db }: OrganizationsDeps) {
  return async (_request: ExportUserDataRequest, ctx: CallContext): Promise<ExportUserDataResponse> => {
    const userId = ctx.caller.userId;
    const [published, subscribed, assignments, member, reviewed] = await Promise.all([
      publishedDecks(db, userId),
      subscriptions(db, userId),
      assignmentsCreated(db, userId),
      memberships(db, userId),
      progress(db, userId),
    ]);
    return {
      json: JSON.stringify({
        memberships: member,
        publishedDecks: published,
        subscriptions: subscribed,
        assignmentsCreated: assignments,
        progress: reviewed,
      }),
    };
  };
}
