// The fronts of the learner's cards, asked of the cards service on their behalf (the internal token
// names cards among its audiences), so generation drops what the learner already has.
import { unary } from '@engram/kit/grpc/client';
import type { CallContext } from '@engram/kit/grpc/server';
import { type CardsServiceClient, CardsServiceService } from '@engram/proto/cards/v1/cards';
import { askPeer } from './peers.js';

const PAGE_SIZE = 100;
/** Enough for a large collection; beyond it, the oldest cards are not compared. */
const MAX_PAGES = 50;
const CARDS_CALL_MS = 3_000;

export async function existingFronts(cards: CardsServiceClient, ctx: CallContext): Promise<string[]> {
  const fronts: string[] = [];
  for (const archived of [false, true]) {
    let cursor = '';
    for (let page = 0; page < MAX_PAGES; page++) {
      const answer = await askPeer(CardsServiceService, () =>
        unary(
          cards,
          cards.listCards,
          { pageSize: PAGE_SIZE, archived, cursor, tagIds: [], query: '' },
          {
            token: ctx.token,
            timeoutMs: CARDS_CALL_MS,
            parentDeadline: ctx.deadline,
            signal: ctx.signal,
          },
        ),
      );
      for (const card of answer.items) fronts.push(card.front);
      cursor = answer.nextCursor;
      if (!cursor) break;
    }
  }
  return fronts;
}
