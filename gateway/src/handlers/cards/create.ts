// cards.create: adds a card for the user.
import { z } from 'zod';
import { callAsUser } from '../../call.js';
import type { ProtectedContext } from '../../trpc.js';
import { type Card, cardJson } from './card-json.js';

const side = (name: string) =>
  z.string().trim().min(1, `${name} is required.`).max(2000, `${name} must be at most 2000 characters.`);

export const createCardInput = z.object({ front: side('Front'), back: side('Back') });

export async function createCard({
  ctx,
  input,
}: {
  ctx: ProtectedContext;
  input: z.infer<typeof createCardInput>;
}): Promise<Card> {
  const { cards } = ctx.services;
  const { card } = await callAsUser(ctx, 'cards', cards, cards.createCard, input);
  return cardJson(card);
}
