// cards.delete: removes a card and its review directions.
import { deleteCardInput } from '@engram/contracts/cards';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';

export { deleteCardInput };

export async function deleteCard({
  ctx,
  input,
}: HandlerArgs<z.infer<typeof deleteCardInput>>): Promise<{ id: string }> {
  await asUser(ctx).cards.deleteCard(input);
  return { id: input.id };
}
