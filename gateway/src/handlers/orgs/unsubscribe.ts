// orgs.unsubscribe: ends the caller's subscription to a shared deck (their copies are archived).
import { deckInput } from '@engram/contracts/shared-decks';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { type DeckJson, deckJson } from './json.js';

export { deckInput };

export async function unsubscribe({ ctx, input }: HandlerArgs<z.infer<typeof deckInput>>): Promise<DeckJson> {
  return deckJson(await asUser(ctx).organizations.unsubscribe(input));
}
