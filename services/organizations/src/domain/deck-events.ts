// The deck and assignment events, written to the outbox in the transaction that changes the deck: the cards service
// makes, updates and archives subscribers' copies from them.
import {
  AssignmentCreated,
  DeckCardPublished,
  DeckCardWithdrawn,
  DeckSubscribed,
  DeckUnsubscribed,
} from '@engram/contracts/events';
import { enqueueEvent, type SqlExecutor } from '@engram/kit/events/outbox';
import { Actor_Kind } from '@engram/proto/events/v1/envelope';
import type { Assignment } from '../generated/prisma/client.js';

const by = (userId: string | undefined) =>
  userId
    ? { actor: { kind: Actor_Kind.KIND_USER, id: userId } }
    : { actor: { kind: Actor_Kind.KIND_SYSTEM, id: 'organizations' } };

export interface PublishedCard {
  originCardId: string;
  type: string;
  front: string;
  back: string;
  revision: bigint;
}

export function cardPublished(tx: SqlExecutor, deckId: string, card: PublishedCard, userId: string) {
  return enqueueEvent(
    tx,
    DeckCardPublished,
    {
      deckId,
      originCardId: card.originCardId,
      type: card.type,
      front: card.front,
      back: card.back,
      revision: Number(card.revision),
    },
    by(userId),
  );
}

/** `userId`: who withdrew it; none when the publisher's account was deleted (the copies go with the text). */
export function cardWithdrawn(
  tx: SqlExecutor,
  deckId: string,
  originCardId: string,
  revision: bigint,
  userId?: string,
) {
  const publisherErased = userId === undefined;
  return enqueueEvent(
    tx,
    DeckCardWithdrawn,
    { deckId, originCardId, revision: Number(revision), publisherErased },
    by(userId),
  );
}

export function subscribed(tx: SqlExecutor, deck: { id: string; name: string }, userId: string) {
  return enqueueEvent(tx, DeckSubscribed, { deckId: deck.id, userId, deckName: deck.name }, by(userId));
}

/** `actorId`: who ended it (the member, an admin withdrawing the deck); none when identity's event did. */
export function unsubscribed(tx: SqlExecutor, deckId: string, userId: string, actorId?: string) {
  return enqueueEvent(tx, DeckUnsubscribed, { deckId, userId }, by(actorId));
}

/** The stored assignment, as the event carries it. */
export type AssignedDeck = Pick<
  Assignment,
  'id' | 'organizationId' | 'deckId' | 'teamId' | 'dueAt' | 'targetKind' | 'targetValue' | 'createdBy'
>;

/** A deck assigned: identity mails the members it is meant for. */
export function assignmentCreated(tx: SqlExecutor, assignment: AssignedDeck, deckName: string) {
  return enqueueEvent(
    tx,
    AssignmentCreated,
    {
      assignmentId: assignment.id,
      organizationId: assignment.organizationId,
      deckId: assignment.deckId,
      deckName,
      teamId: assignment.teamId ?? '',
      dueAt: assignment.dueAt,
      targetKind: assignment.targetKind,
      targetValue: assignment.targetValue,
      createdBy: assignment.createdBy,
    },
    by(assignment.createdBy),
  );
}
