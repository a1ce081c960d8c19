// media.delete: removes a card file no card of the learner's shows any more.
import { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';

export const deleteMediaInput = z.object({ id: z.uuid('The file id is not valid.') });

export async function deleteMedia({
  ctx,
  input,
}: HandlerArgs<z.infer<typeof deleteMediaInput>>): Promise<{ id: string }> {
  await asUser(ctx).media.deleteMedia(input);
  return { id: input.id };
}
