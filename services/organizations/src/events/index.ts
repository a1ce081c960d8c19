// The events organizations takes part in, as runService wires them: it publishes its outbox (the deck
// events) and keeps two read models. Memberships, from identity: a member who leaves (or whose team or
// organization goes) loses their subscriptions to what they can no longer see, and with them their copies'
// updates. Reviews of deck copies, from cards: what progress is counted from. A deleted account goes.
import {
  MemberAdded,
  MemberRemoved,
  MemberRoleChanged,
  OrganizationDeleted,
  ReviewRecorded,
  ReviewUndone,
  TeamMemberAdded,
  TeamMemberRemoved,
  UserDeleted,
} from '@engram/contracts/events';
import { prismaTransactions } from '@engram/kit/events/apply-once';
import type { EventsDeclaration } from '@engram/kit/events/runtime';
import { on } from '@engram/kit/events/subscriptions';
import type { Db, Prisma } from '../db.js';
import { unsubscribed } from '../domain/deck-events.js';

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

export async function eraseOrganizationsUser(tx: Tx, userId: string): Promise<void> {
  await tx.member.deleteMany({ where: { userId } });
  await tx.teamMember.deleteMany({ where: { userId } });
  await tx.subscription.deleteMany({ where: { userId } });
  await tx.deckReview.deleteMany({ where: { userId } });
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
          on(MemberAdded, async ({ organizationId, userId, role }, { tx }) => {
            await tx.member.upsert({
              where: { organizationId_userId: { organizationId, userId } },
              create: { organizationId, userId, role },
              update: { role },
            });
          }),
          on(MemberRoleChanged, async ({ organizationId, userId, role }, { tx }) => {
            await tx.member.updateMany({ where: { organizationId, userId }, data: { role } });
          }),
          on(MemberRemoved, ({ organizationId, userId }, { tx }) => leaveOrganization(tx, organizationId, userId)),
        ],
      },
      {
        // team-member.* likewise. A team roster is read together with the members (progress.ts), so a
        // joining applied after the member left the organization counts for nothing.
        purpose: 'team-members',
        subscriptions: [
          on(TeamMemberAdded, async ({ teamId, userId, organizationId }, { tx }) => {
            if (!organizationId) return;
            await tx.teamMember.upsert({
              where: { teamId_userId: { teamId, userId } },
              create: { teamId, userId, organizationId },
              update: {},
            });
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
            async (review, { tx }) => {
              const deck = await tx.deck.findUnique({ where: { id: review.deckId }, select: { id: true } });
              if (!deck) return;
              await tx.deckReview.createMany({
                data: [
                  {
                    reviewId: review.reviewId,
                    deckId: review.deckId,
                    userId: review.ownerId,
                    cardId: review.cardId,
                    itemId: review.itemId,
                    rating: review.rating,
                    stateBefore: review.stateBefore,
                    stateAfter: review.stateAfter,
                    reviewedAt: review.reviewedAt ?? new Date(),
                  },
                ],
                skipDuplicates: true,
              });
            },
            // Most reviews are of the learner's own cards: those never open a transaction here.
            { when: (review) => review.deckId !== '' },
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
