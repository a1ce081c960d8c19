// cards.deleteTag: removes one of the user's tags.
import { deleteTagInput } from '@engram/contracts/cards';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';

export { deleteTagInput };

export async function deleteTag({ ctx, input }: HandlerArgs<z.infer<typeof deleteTagInput>>): Promise<{ id: string }> {
  await asUser(ctx).cards.deleteTag(input);
  return { id: input.id };
}
