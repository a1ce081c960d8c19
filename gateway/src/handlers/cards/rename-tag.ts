// cards.renameTag: gives one of the user's tags a new name.
import { renameTagInput } from '@engram/contracts/cards';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { type Tag, tagJson } from './card-json.js';

export { renameTagInput };

export async function renameTag({ ctx, input }: HandlerArgs<z.infer<typeof renameTagInput>>): Promise<Tag> {
  return tagJson((await asUser(ctx).cards.renameTag(input)).tag);
}
