// Decks as the caller may see them: who sees which deck, and the deck message with its counts.
import { SHARED_DECK_REASONS } from '@engram/contracts/shared-decks';
import { NotFound } from '@engram/kit/errors';
import type { CallContext } from '@engram/kit/grpc/server';
import type { Deck as DeckMessage } from '@engram/proto/organizations/v1/organizations';
import { allowed, type MemberAccess, membership } from '../access.js';
import type { Db } from '../db.js';
import type { OrganizationsDeps } from '../deps.js';
import type { Deck } from '../generated/prisma/client.js';
import { isId } from '../ids.js';

/** A deck of DECK_CARD_LIMIT cards writes a row and an event for each: publishing and syncing take long. */
export const LONG_TRANSACTION = { timeout: 30_000 };

export const deckNotFound = () => new NotFound('Deck not found.', SHARED_DECK_REASONS.deckNotFound);

/** Those who may change decks see every deck; everyone else the organization's and their teams'. */
export function visible(deck: Pick<Deck, 'teamId'>, access: MemberAccess, managesDecks: boolean): boolean {
  return managesDecks || deck.teamId === null || access.teamIds.includes(deck.teamId);
}

/** A deck the caller may see, with their membership; NOT_FOUND for anyone else, members of other
 * organizations included. */
export async function visibleDeck(deps: OrganizationsDeps, ctx: CallContext, deckId: string) {
  if (!isId(deckId)) throw deckNotFound();
  const deck = await deps.db.deck.findUnique({ where: { id: deckId } });
  if (!deck) throw deckNotFound();
  let access: MemberAccess;
  try {
    access = await membership(deps.identity, ctx, deck.organizationId);
  } catch (error) {
    if (error instanceof NotFound) throw deckNotFound();
    throw error;
  }
  const managesDecks = await allowed(deps.identity, ctx, deck.organizationId, { deck: ['update'] });
  if (!visible(deck, access, managesDecks)) throw deckNotFound();
  return { deck, access, managesDecks };
}

/** The deck messages of `decks`, with their card and subscriber counts and the caller's subscription. */
export async function deckMessages(db: Db, decks: Deck[], userId: string): Promise<DeckMessage[]> {
  if (decks.length === 0) return [];
  const ids = decks.map((deck) => deck.id);
  const [cards, subscribers, mine] = await Promise.all([
    db.deckCard.groupBy({ by: ['deckId'], where: { deckId: { in: ids }, withdrawn: false }, _count: true }),
    db.subscription.groupBy({ by: ['deckId'], where: { deckId: { in: ids } }, _count: true }),
    db.subscription.findMany({ where: { deckId: { in: ids }, userId }, select: { deckId: true } }),
  ]);
  const cardCount = new Map(cards.map((row) => [row.deckId, row._count]));
  const subscriberCount = new Map(subscribers.map((row) => [row.deckId, row._count]));
  const subscribed = new Set(mine.map((row) => row.deckId));
  return decks.map((deck) => ({
    id: deck.id,
    organizationId: deck.organizationId,
    teamId: deck.teamId ?? '',
    name: deck.name,
    description: deck.description,
    publisherId: deck.publisherId,
    cardCount: cardCount.get(deck.id) ?? 0,
    subscriberCount: subscriberCount.get(deck.id) ?? 0,
    subscribed: subscribed.has(deck.id),
    createdAt: deck.createdAt,
    updatedAt: deck.updatedAt,
  }));
}

export async function deckMessage(db: Db, deck: Deck, userId: string): Promise<DeckMessage> {
  const [message] = await deckMessages(db, [deck], userId);
  return message as DeckMessage;
}
