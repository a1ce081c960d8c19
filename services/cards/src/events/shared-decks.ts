// The shared decks of the organizations service, as cards keeps them: a replica of each deck's cards
// (deck_cards) and subscribers (deck_subscribers), and every subscriber's copies of those cards
// (domain/deck-copies.ts). Each handler runs in its consumer's transaction and derives the copies from
// the replica, so a repeated event changes nothing and any order of delivery ends in the same state:
// the copies of a deck are those its subscribers should have, at the newest revision of each card. A
// card's events are ordered by its revision, a subscription's by when organizations published them. A
// subscription of an erased user arriving after their erasure is refused.

import { CARD_TYPES, type CardType } from '@engram/contracts/learning';
import { wasErased } from '@engram/kit/events/erased-users';
import type {
  DeckCardPublished,
  DeckCardWithdrawn,
  DeckSubscribed,
  DeckUnsubscribed,
} from '@engram/proto/events/v1/organizations';
import { assertContent } from '../domain/card-writes.js';
import { archiveCopies, createCopy, deckTag, reviseCopy } from '../domain/deck-copies.js';
import type { Prisma } from '../generated/prisma/client.js';

type Tx = Prisma.TransactionClient;

/**
 * One deck's events apply one after the other (across consumers and replicas): a subscription and a new
 * card committing side by side would each miss the other and leave the subscriber without that copy.
 */
async function lockDeck(tx: Tx, deckId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('cards.deck'), hashtext(${deckId}))`;
}

/** Whether an event of `revision` is newer than what the replica holds of that card. */
async function isNewer(tx: Tx, deckId: string, originCardId: string, revision: number): Promise<boolean> {
  const stored = await tx.deckCard.findUnique({
    where: { deckId_originCardId: { deckId, originCardId } },
    select: { revision: true },
  });
  return !stored || stored.revision < BigInt(revision);
}

function cardTypeOf(type: string): CardType {
  if (!(CARD_TYPES as readonly string[]).includes(type)) throw new Error(`unknown card type: ${type}`);
  return type as CardType;
}

export async function onDeckCardPublished(tx: Tx, event: DeckCardPublished): Promise<void> {
  const { deckId, originCardId, front, back } = event;
  const type = cardTypeOf(event.type);
  assertContent(type, front);
  await lockDeck(tx, deckId);
  if (!(await isNewer(tx, deckId, originCardId, event.revision))) return;
  const content = { type, front, back, revision: BigInt(event.revision), withdrawn: false };
  const deckCard = await tx.deckCard.upsert({
    where: { deckId_originCardId: { deckId, originCardId } },
    create: { deckId, originCardId, ...content },
    update: content,
  });
  const now = new Date();
  const subscribers = await tx.deckSubscriber.findMany({ where: { deckId, subscribed: true } });
  const copies = await tx.card.findMany({ where: { deckId, originCardId } });
  const subscribed = new Set(subscribers.map((subscriber) => subscriber.userId));
  for (const copy of copies) {
    // A former subscriber's copy follows the text but stays archived, to come back on a new subscription.
    await reviseCopy(tx, copy, deckCard, subscribed.has(copy.ownerId) ? false : copy.archived, now);
  }
  const copied = new Set(copies.map((copy) => copy.ownerId));
  for (const subscriber of subscribers) {
    if (copied.has(subscriber.userId)) continue;
    const tagId = await deckTag(tx, subscriber.userId, subscriber.deckName);
    await createCopy(tx, subscriber.userId, tagId, deckCard, now);
  }
}

export async function onDeckCardWithdrawn(tx: Tx, event: DeckCardWithdrawn): Promise<void> {
  const { deckId, originCardId } = event;
  await lockDeck(tx, deckId);
  if (!(await isNewer(tx, deckId, originCardId, event.revision))) return;
  const revision = BigInt(event.revision);
  // Withdrawn before its publication arrived: the row keeps the revision, so that late publication is ignored.
  // A publisher's erasure takes the card's text with it: the replica keeps only the revision, and every
  // subscriber's copy goes (their reviews of it stay in their history).
  const erased = event.publisherErased ? { front: '', back: '' } : {};
  await tx.deckCard.upsert({
    where: { deckId_originCardId: { deckId, originCardId } },
    create: { deckId, originCardId, revision, withdrawn: true },
    update: { revision, withdrawn: true, ...erased },
  });
  if (event.publisherErased) await tx.card.deleteMany({ where: { deckId, originCardId } });
  else await archiveCopies(tx, { deckId, originCardId });
}

/**
 * Records the subscription's newest state; false when the stored one is as new (a repeat, or an event
 * overtaken by a later one), and nothing is to be done.
 */
async function recordSubscription(
  tx: Tx,
  subscription: { deckId: string; userId: string; deckName?: string; subscribed: boolean },
  occurredAt: Date,
): Promise<boolean> {
  const { deckId, userId, deckName, subscribed } = subscription;
  const where = { deckId_userId: { deckId, userId } };
  const stored = await tx.deckSubscriber.findUnique({ where, select: { changedAt: true } });
  if (stored && stored.changedAt >= occurredAt) return false;
  const state = { subscribed, changedAt: occurredAt, ...(deckName !== undefined && { deckName }) };
  await tx.deckSubscriber.upsert({ where, create: { deckId, userId, deckName: '', ...state }, update: state });
  return true;
}

export async function onDeckSubscribed(tx: Tx, event: DeckSubscribed, occurredAt: Date): Promise<void> {
  const { deckId, userId, deckName } = event;
  await lockDeck(tx, deckId);
  if (await wasErased(tx, userId)) return;
  if (!(await recordSubscription(tx, { deckId, userId, deckName, subscribed: true }, occurredAt))) return;
  const deckCards = await tx.deckCard.findMany({ where: { deckId, withdrawn: false } });
  const copies = await tx.card.findMany({ where: { ownerId: userId, deckId } });
  const byOrigin = new Map(copies.map((copy) => [copy.originCardId, copy]));
  const now = new Date();
  const missing = [];
  for (const deckCard of deckCards) {
    const copy = byOrigin.get(deckCard.originCardId);
    // A copy kept from an earlier subscription comes back with its progress.
    if (copy) await reviseCopy(tx, copy, deckCard, false, now);
    else missing.push(deckCard);
  }
  if (missing.length === 0) return;
  const tagId = await deckTag(tx, userId, deckName);
  for (const deckCard of missing) await createCopy(tx, userId, tagId, deckCard, now);
}

export async function onDeckUnsubscribed(tx: Tx, event: DeckUnsubscribed, occurredAt: Date): Promise<void> {
  const { deckId, userId } = event;
  await lockDeck(tx, deckId);
  if (await wasErased(tx, userId)) return;
  if (!(await recordSubscription(tx, { deckId, userId, subscribed: false }, occurredAt))) return;
  await archiveCopies(tx, { deckId, ownerId: userId });
}
