// The publisher's cards under one tag, read from the cards service on their behalf (the internal token
// names cards among its audiences): what a deck shares when it is published or synced. A card the cloze
// rule refuses (one saved before the rule was as strict) is named, so the publisher can edit it, rather than
// sent to subscribers whose copies would refuse it.
import { CARD_CONTENT_PROBLEMS, cardContentProblem } from '@engram/contracts/cloze';
import { CARD_TYPES, type CardType } from '@engram/contracts/learning';
import { DECK_CARD_LIMIT, SHARED_DECK_REASONS } from '@engram/contracts/shared-decks';
import { FailedPrecondition, Invalid } from '@engram/kit/errors';
import { unary } from '@engram/kit/grpc/client';
import { askPeer } from '@engram/kit/grpc/peer';
import type { CallContext } from '@engram/kit/grpc/server';
import type { CardsServiceClient, ListCardsResponse } from '@engram/proto/cards/v1/cards';

const PAGE_SIZE = 100;
const CARDS_CALL_MS = 5_000;

export interface TagCard {
  originCardId: string;
  type: string;
  front: string;
  back: string;
}

export async function tagCards(cards: CardsServiceClient, ctx: CallContext, tagId: string): Promise<TagCard[]> {
  const found: TagCard[] = [];
  let cursor = '';
  do {
    const page: ListCardsResponse = await askPeer(
      'Organizations cannot reach your cards right now. Please try again.',
      () =>
        unary(
          cards,
          cards.listCards,
          { pageSize: PAGE_SIZE, archived: false, cursor, tagIds: [tagId], query: '' },
          { token: ctx.token, timeoutMs: CARDS_CALL_MS, parentDeadline: ctx.deadline, signal: ctx.signal },
        ),
    );
    for (const card of page.items) {
      // A note of the publisher's own note type goes out as a basic card of its first field and the others: the
      // subscribers have not that note type (it is the publisher's alone).
      const known = (CARD_TYPES as readonly string[]).includes(card.type) && card.type !== 'note';
      const type = known ? (card.type as CardType) : 'basic';
      const problem = cardContentProblem(type, card.front);
      if (problem) {
        const excerpt = card.front.length > 60 ? `${card.front.slice(0, 59)}…` : card.front;
        throw new Invalid(`The card “${excerpt}” cannot be shared: ${CARD_CONTENT_PROBLEMS[problem]}`, 'INVALID_CARD');
      }
      found.push({ originCardId: card.id, type, front: card.front, back: card.back });
    }
    if (found.length > DECK_CARD_LIMIT) {
      throw new FailedPrecondition(`A deck holds at most ${DECK_CARD_LIMIT} cards.`, SHARED_DECK_REASONS.deckTooLarge);
    }
    cursor = page.nextCursor;
  } while (cursor);
  return found;
}
