// cards.archive: archives a card (it stops being due) or brings it back.
import { archiveCardInput } from '@engram/contracts/cards';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { type Card, cardJson } from './card-json.js';

export { archiveCardInput };

export async function archiveCard({ ctx, input }: HandlerArgs<z.infer<typeof archiveCardInput>>): Promise<Card> {
  return cardJson((await asUser(ctx).cards.archiveCard(input)).card);
}
