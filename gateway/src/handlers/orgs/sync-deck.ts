// orgs.syncDeck: publishes the changes of a deck's cards since it was published or last synced.
import { deckInput } from '@engram/contracts/shared-decks';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { type DeckJson, deckJson } from './json.js';
import { PUBLISH_CALL } from './publish-deck.js';

export { deckInput };

export async function syncDeck({ ctx, input }: HandlerArgs<z.infer<typeof deckInput>>): Promise<DeckJson> {
  return deckJson(await asUser(ctx).organizations.syncDeck(input, PUBLISH_CALL));
}
