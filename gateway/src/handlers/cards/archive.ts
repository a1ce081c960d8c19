// cards.archive: archives a card (it stops being due) or brings it back.
import { archiveCardInput } from '@engram/contracts/cards';
import type { z } from 'zod';
import { callAsUser } from '../../call.js';
import type { ProtectedContext } from '../../trpc.js';
import { type Card, cardJson } from './card-json.js';

export { archiveCardInput };

export async function archiveCard({
  ctx,
  input,
}: {
  ctx: ProtectedContext;
  input: z.infer<typeof archiveCardInput>;
}): Promise<Card> {
  const { cards } = ctx.services;
  return cardJson((await callAsUser(ctx, 'cards', cards, cards.archiveCard, input)).card);
}
