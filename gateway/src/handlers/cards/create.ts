// cards.create: adds a card for the user.
import { type CreateCardInput, createCardInput } from '@engram/contracts/cards';
import { callAsUser } from '../../call.js';
import type { ProtectedContext } from '../../trpc.js';
import { type Card, cardJson } from './card-json.js';

export { createCardInput };

export async function createCard({ ctx, input }: { ctx: ProtectedContext; input: CreateCardInput }): Promise<Card> {
  const { cards } = ctx.services;
  const { card } = await callAsUser(ctx, 'cards', cards, cards.createCard, input);
  return cardJson(card);
}
