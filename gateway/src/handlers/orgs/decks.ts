// orgs.decks: one page of an organization's shared decks the caller may see.
import { listDecksInput } from '@engram/contracts/shared-decks';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { type DeckJson, deckJson, type Page, pageRequest } from './json.js';

export { listDecksInput };

export async function decks({ ctx, input }: HandlerArgs<z.infer<typeof listDecksInput>>): Promise<Page<DeckJson>> {
  const request = { organizationId: input.organizationId, ...pageRequest(input) };
  const answer = await asUser(ctx).organizations.listDecks(request);
  return { items: answer.decks.map(deckJson), nextCursor: answer.nextCursor || null };
}
