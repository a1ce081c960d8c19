// orgs.deleteDeck: withdraws a shared deck.
import { deckInput } from '@engram/contracts/shared-decks';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';

export { deckInput };

export async function deleteDeck({ ctx, input }: HandlerArgs<z.infer<typeof deckInput>>): Promise<{ deleted: true }> {
  await asUser(ctx).organizations.deleteDeck(input);
  return { deleted: true };
}
