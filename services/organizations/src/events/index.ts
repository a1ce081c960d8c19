// The events organizations takes part in, as runService wires them: it publishes its outbox (the deck
// events) and keeps two read models. Memberships, from identity: a member who leaves (or whose team or
// organization goes) loses their subscriptions to what they can no longer see, and with them their copies'
// updates. Reviews of deck copies, from cards: what progress is counted from, those of members only. A deleted account goes with
// the decks it published, and events about it that arrive afterwards are refused.
import {
  MemberAdded,
  MemberRemoved,
  MemberRoleChanged,
  OrganizationDeleted,
  ReviewRecorded,
  ReviewRestated,
  ReviewUndone,
  TeamMemberAdded,
  TeamMemberRemoved,
  UserDeleted,
} from '@engram/contracts/events';
import { prismaTransactions } from '@engram/kit/events/apply-once';
import { forgetPublishedEvents, recordErasure, wasErased } from '@engram/kit/events/erased-users';
import type { EventsDeclaration } from '@engram/kit/events/runtime';
import { on } from '@engram/kit/events/subscriptions';
import type { Db, Prisma } from '../db.js';
import { cardWithdrawn, unsubscribed } from '../domain/deck-events.js';
import { recordDeckReview } from '../domain/deck-reviews.js';

type Tx = Prisma.TransactionClient;

/** Built-in roles that see every deck (deck:update); custom roles are identity's to judge per call. */
const SEES_EVERY_DECK = /(^|,)\s*(owner|admin)\s*(,|$)/;

/** Ends the user's subscriptions to the given decks, each with its event. */
async function endSubscriptions(tx: Tx, userId: string, deckIds: string[]): Promise<void> {
  if (deckIds.length === 0) return;
  const ended = await tx.subscription.findMany({ where: { userId, deckId: { in: deckIds } } });
  await tx.subscription.deleteMany({ where: { userId, deckId: { in: deckIds } } });
  for (const subscription of ended) await unsubscribed(tx, subscription.deckId, userId);
}

async function leaveOrganization(tx: Tx, organizationId: string, userId: string): Promise<void> {
  await tx.member.deleteMany({ where: { organizationId, userId } });
  await tx.teamMember.deleteMany({ where: { organizationId, userId } });
  const decks = await tx.deck.findMany({ where: { organizationId }, select: { id: true } });
  await endSubscriptions(
    tx,
    userId,
    decks.map((deck) => deck.id),
  );
}

async function leaveTeam(tx: Tx, teamId: string, userId: string): Promise<void> {
  const left = await tx.teamMember.findUnique({ where: { teamId_userId: { teamId, userId } } });
  await tx.teamMember.deleteMany({ where: { teamId, userId } });
  const member =
    left &&
    (await tx.member.findUnique({ where: { organizationId_userId: { organizationId: left.organizationId, userId } } }));
  if (member && SEES_EVERY_DECK.test(member.role)) return;
  const decks = await tx.deck.findMany({ where: { teamId }, select: { id: true } });
  await endSubscriptions(
    tx,
    userId,
    decks.map((deck) => deck.id),
  );
}

async function deleteOrganization(tx: Tx, organizationId: string): Promise<void> {
  const decks = await tx.deck.findMany({ where: { organizationId }, select: { id: true } });
  const deckIds = decks.map((deck) => deck.id);
  const subscriptions = await tx.subscription.findMany({ where: { deckId: { in: deckIds } } });
  for (const subscription of subscriptions) await unsubscribed(tx, subscription.deckId, subscription.userId);
  await tx.deckReview.deleteMany({ where: { deckId: { in: deckIds } } });
  await tx.deck.deleteMany({ where: { organizationId } });
  await tx.member.deleteMany({ where: { organizationId } });
  await tx.teamMember.deleteMany({ where: { organizationId } });
}

/**
 * Everything organizations kept of a deleted user goes, in the consumer's transaction: their memberships,
 * subscriptions and reviews, and the decks they published, withdrawn from every subscriber with their
 * text (cards deletes the copies) and their assignments. Assignments they made of others' decks stay for
 * the members who follow them, without their maker. The erasure is recorded as a hash of the id first, so
 * a late event about the user is refused (`refuseErased`).
 */
export async function eraseOrganizationsUser(tx: Tx, userId: string): Promise<void> {
  await recordErasure(tx, userId);
  const decks = await tx.deck.findMany({
    where: { publisherId: userId },
    select: { id: true, cards: { select: { originCardId: true, revision: true } }, subscriptions: true },
  });
  const deckIds = decks.map((deck) => deck.id);
  for (const deck of decks) {
    for (const card of deck.cards) await cardWithdrawn(tx, deck.id, card.originCardId, card.revision + 1n);
    for (const subscription of deck.subscriptions) await unsubscribed(tx, deck.id, subscription.userId);
  }
  await tx.deckReview.deleteMany({ where: { deckId: { in: deckIds } } });
  await tx.deck.deleteMany({ where: { id: { in: deckIds } } });
  await tx.assignment.updateMany({ where: { createdBy: userId }, data: { createdBy: '' } });
  await tx.member.deleteMany({ where: { userId } });
  await tx.teamMember.deleteMany({ where: { userId } });
  await tx.subscription.deleteMany({ where: { userId } });
  await tx.deckReview.deleteMany({ where: { userId } });
  await forgetPublishedEvents(tx, [userId, ...deckIds]);
}

/** Runs `apply` unless the user was erased: an event about them that arrives later creates nothing. */
async function refuseErased(tx: Tx, userId: string, apply: () => Promise<unknown>): Promise<void> {
  if (await wasErased(tx, userId)) return;
  await apply();
}

export function organizationsEvents(db: Db): EventsDeclaration<Tx> {
  return {
    relay: true,
    transactions: prismaTransactions(db),
    consumers: [
      {
        // member.* in one consumer (one wildcard filter): a member's events apply in the order identity
        // wrote them, so a removal never comes before the joining it undoes.
        purpose: 'members',
        subscriptions: [
          // A member joined when identity wrote the membership (the event's time): a review of theirs done
          // before it does not count for the organization (domain/deck-reviews.ts).
          on(MemberAdded, ({ organizationId, userId, role }, { tx, envelope }) =>
            refuseErased(tx, userId, () =>
              tx.member.upsert({
                where: { organizationId_userId: { organizationId, userId } },
                create: { organizationId, userId, role, joinedAt: envelope.occurredAt ?? new Date() },
                update: { role },
              }),
            ),
          ),
          on(MemberRoleChanged, async ({ organizationId, userId, role }, { tx }) => {
            await tx.member.updateMany({ where: { organizationId, userId }, data: { role } });
          }),
          on(MemberRemoved, ({ organizationId, userId }, { tx }) => leaveOrganization(tx, organizationId, userId)),
        ],
      },
      {
        // team-member.* likewise. A team roster is read together with the members
        // (handlers/get-progress.ts), so a joining applied after the member left the organization counts
        // for nothing.
        purpose: 'team-members',
        subscriptions: [
          on(TeamMemberAdded, async ({ teamId, userId, organizationId }, { tx }) => {
            if (!organizationId) return;
            await refuseErased(tx, userId, () =>
              tx.teamMember.upsert({
                where: { teamId_userId: { teamId, userId } },
                create: { teamId, userId, organizationId },
                update: {},
              }),
            );
          }),
          on(TeamMemberRemoved, ({ teamId, userId }, { tx }) => leaveTeam(tx, teamId, userId)),
        ],
      },
      {
        purpose: 'organization-deleted',
        subscriptions: [
          on(OrganizationDeleted, ({ organizationId }, { tx }) => deleteOrganization(tx, organizationId)),
        ],
      },
      {
        // review.* in one consumer: an undo always follows the review it takes back.
        purpose: 'deck-reviews',
        subscriptions: [
          on(
            ReviewRecorded,
            // Counted only for a member of the deck's organization (domain/deck-reviews.ts).
            (review, { tx }) => refuseErased(tx, review.ownerId, () => recordDeckReview(tx, review)),
            // Most reviews are of the learner's own cards: those never open a transaction here.
            { when: (review) => review.deckId !== '' },
          ),
          // A review synced late from another device changed the states of the reviews after it.
          on(
            ReviewRestated,
            async ({ reviewId, stateBefore, stateAfter }, { tx }) => {
              await tx.deckReview.updateMany({ where: { reviewId }, data: { stateBefore, stateAfter } });
            },
            { when: (restated) => restated.deckId !== '' },
          ),
          on(
            ReviewUndone,
            async ({ reviewId }, { tx }) => {
              await tx.deckReview.deleteMany({ where: { reviewId } });
            },
            { when: (undone) => undone.deckId !== '' },
          ),
        ],
      },
      {
        purpose: 'erase-user',
        subscriptions: [on(UserDeleted, (payload, { tx }) => eraseOrganizationsUser(tx, payload.userId))],
      },
    ],
  };
}
