// cards.list: one page of the user's cards, newest first.
import { z } from 'zod';
import { callAsUser } from '../../call.js';
import type { ProtectedContext } from '../../trpc.js';
import { type Card, cardJson } from './card-json.js';

export const listCardsInput = z.object({
  pageSize: z.number().int().min(1).max(100).default(10),
  archived: z.boolean().default(false),
  cursor: z.string().max(512).nullish(),
});

export async function listCards({
  ctx,
  input,
}: {
  ctx: ProtectedContext;
  input: z.infer<typeof listCardsInput>;
}): Promise<{ items: Card[]; nextCursor: string | null }> {
  const { cards } = ctx.services;
  const page = await callAsUser(
    ctx,
    'cards',
    cards,
    cards.listCards,
    { pageSize: input.pageSize, archived: input.archived, cursor: input.cursor ?? '' },
    { timeoutMs: 1_000 },
  );
  return { items: page.items.map(cardJson), nextCursor: page.nextCursor || null };
}
