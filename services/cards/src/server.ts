// Registers the cards service's gRPC handlers.
import { implement, type ServerOptions } from '@engram/kit/grpc/server';
import { CardsServiceService } from '@engram/proto/cards/v1/cards';
import type { Db } from './db.js';
import { createCard } from './handlers/CreateCard.js';
import { listCards } from './handlers/ListCards.js';

export function cardsService(db: Db, options: ServerOptions) {
  return {
    name: 'engram.cards.v1.CardsService',
    definition: CardsServiceService,
    implementation: implement(
      CardsServiceService,
      { createCard: { handle: createCard(db) }, listCards: { handle: listCards(db) } },
      options,
    ),
  };
}
