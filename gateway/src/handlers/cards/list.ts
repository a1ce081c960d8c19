// cards.list: one page of the user's cards, newest first; optionally by tags and search text.
import { type ListCardsInput, listCardsInput } from '@engram/contracts/cards';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { type Card, cardJson } from './card-json.js';

export { listCardsInput };

export async function listCards({
  ctx,
  input,
}: HandlerArgs<ListCardsInput>): Promise<{ items: Card[]; nextCursor: string | null }> {
  const page = await asUser(ctx).cards.listCards({
    pageSize: input.pageSize,
    archived: input.archived,
    cursor: input.cursor ?? '',
    tagIds: input.tagIds ?? [],
    query: input.query ?? '',
  });
  return { items: page.items.map(cardJson), nextCursor: page.nextCursor || null };
}
