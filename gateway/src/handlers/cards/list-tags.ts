// cards.listTags: one page of the user's tags.
import { listTagsInput } from '@engram/contracts/cards';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { tagJson } from './card-json.js';

export { listTagsInput };

export async function listTags({ ctx, input }: HandlerArgs<z.infer<typeof listTagsInput>>) {
  const page = await asUser(ctx).cards.listTags({
    pageSize: input.pageSize,
    cursor: input.cursor ?? '',
  });
  return { items: page.items.map(tagJson), nextCursor: page.nextCursor || null };
}
