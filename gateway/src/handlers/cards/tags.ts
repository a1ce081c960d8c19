// cards.listTags, cards.createTag, cards.renameTag, cards.deleteTag: the user's tags.
import { createTagInput, deleteTagInput, listTagsInput, renameTagInput } from '@engram/contracts/cards';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { ProtectedContext } from '../../trpc.js';
import { type Tag, tagJson } from './card-json.js';

export { createTagInput, deleteTagInput, listTagsInput, renameTagInput };

type Call<I> = { ctx: ProtectedContext; input: z.infer<I> };

export async function listTags({ ctx, input }: Call<typeof listTagsInput>) {
  const page = await asUser(ctx).cards.listTags({
    pageSize: input.pageSize,
    cursor: input.cursor ?? '',
  });
  return { items: page.items.map(tagJson), nextCursor: page.nextCursor || null };
}

export async function createTag({ ctx, input }: Call<typeof createTagInput>): Promise<Tag> {
  return tagJson((await asUser(ctx).cards.createTag(input)).tag);
}

export async function renameTag({ ctx, input }: Call<typeof renameTagInput>): Promise<Tag> {
  return tagJson((await asUser(ctx).cards.renameTag(input)).tag);
}

export async function deleteTag({ ctx, input }: Call<typeof deleteTagInput>): Promise<{ id: string }> {
  await asUser(ctx).cards.deleteTag(input);
  return { id: input.id };
}
