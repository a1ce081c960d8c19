// orgs.subscribe: the caller subscribes to a shared deck and gets their own copy of every card.
import { deckInput } from '@engram/contracts/shared-decks';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { type DeckJson, deckJson } from './json.js';

export { deckInput };

export async function subscribe({ ctx, input }: HandlerArgs<z.infer<typeof deckInput>>): Promise<DeckJson> {
  return deckJson(await asUser(ctx).organizations.subscribe(input));
}
