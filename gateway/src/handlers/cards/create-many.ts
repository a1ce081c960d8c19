// cards.createMany: up to 500 cards in one transaction (all stored, or none). Retry-safe as cards.create:
// the client's idempotencyKey, or one the gateway makes.
import { randomUUID } from 'node:crypto';
import { createManyInput } from '@engram/contracts/cards';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { type Card, cardJson, newCardRequest } from './card-json.js';

export { createManyInput };

export async function createMany({
  ctx,
  input,
}: HandlerArgs<z.infer<typeof createManyInput>>): Promise<{ items: Card[] }> {
  const answer = await asUser(ctx).cards.createCards(
    { cards: input.cards.map(newCardRequest), idempotencyKey: input.idempotencyKey ?? randomUUID() },
    { timeoutMs: 30_000 },
  );
  return { items: answer.cards.map(cardJson) };
}
