// The JSON shape of a card for the web app.
import type { Card as CardMessage } from '@engram/proto/cards/v1/cards';

export interface Card {
  id: string;
  front: string;
  back: string;
  archived: boolean;
  createdAt: string;
  updatedAt: string;
}

export function cardJson(card: CardMessage | undefined): Card {
  if (!card) throw new Error('the cards service returned no card');
  return {
    id: card.id,
    front: card.front,
    back: card.back,
    archived: card.archived,
    createdAt: (card.createdAt ?? new Date(0)).toISOString(),
    updatedAt: (card.updatedAt ?? new Date(0)).toISOString(),
  };
}
