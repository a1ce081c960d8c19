// cards.createTag: adds a tag for the user.
import { createTagInput } from '@engram/contracts/cards';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { type Tag, tagJson } from './card-json.js';

export { createTagInput };

export async function createTag({ ctx, input }: HandlerArgs<z.infer<typeof createTagInput>>): Promise<Tag> {
  return tagJson((await asUser(ctx).cards.createTag(input)).tag);
}
