// cards.create: adds a card (basic, reversed or cloze, with tags) for the user. The client may send an
// idempotencyKey so that resending after a lost answer returns the same card; without one, the gateway
// makes one, so the call to the cards service can still be retried safely.
import { randomUUID } from 'node:crypto';
import { type CreateCardInput, createCardInput } from '@engram/contracts/cards';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { type Card, cardJson, newCardRequest } from './card-json.js';

export { createCardInput };

export async function createCard({ ctx, input }: HandlerArgs<CreateCardInput>): Promise<Card> {
  const { card } = await asUser(ctx).cards.createCard({
    ...newCardRequest(input),
    idempotencyKey: input.idempotencyKey ?? randomUUID(),
  });
  return cardJson(card);
}
