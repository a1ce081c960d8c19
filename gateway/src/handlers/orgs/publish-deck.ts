// orgs.publishDeck: shares the cards of one of the publisher's tags with the organization (or a team) as a deck.
import { type PublishDeckInput, publishDeckInput } from '@engram/contracts/shared-decks';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { type DeckJson, deckJson } from './json.js';

export { publishDeckInput };

/** Publishing reads up to DECK_CARD_LIMIT cards and writes an event for each; syncing does the same. */
export const PUBLISH_CALL = { timeoutMs: 30_000 } as const;

export async function publishDeck({ ctx, input }: HandlerArgs<PublishDeckInput>): Promise<DeckJson> {
  const request = {
    organizationId: input.organizationId,
    teamId: input.teamId ?? '',
    name: input.name,
    description: input.description ?? '',
    tagId: input.tagId,
  };
  return deckJson(await asUser(ctx).organizations.publishDeck(request, PUBLISH_CALL));
}
