// media.list: the learner's card files, newest first, a page at a time, with the storage used and the quota.
import { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { type MediaJson, mediaJson } from './json.js';

export const listMediaInput = z
  .object({
    pageSize: z.number().int().min(1).max(100, 'A page holds at most 100 files.').optional(),
    cursor: z.string().nullish(),
  })
  .optional();

export interface MediaPage {
  items: MediaJson[];
  nextCursor: string | null;
  usedBytes: number;
  quotaBytes: number;
  plan: string;
}

export async function listMedia({ ctx, input }: HandlerArgs<z.infer<typeof listMediaInput>>): Promise<MediaPage> {
  const answer = await asUser(ctx).media.listMedia({ pageSize: input?.pageSize ?? 0, cursor: input?.cursor ?? '' });
  return {
    items: answer.items.map(mediaJson),
    nextCursor: answer.nextCursor || null,
    usedBytes: answer.usedBytes,
    quotaBytes: answer.quotaBytes,
    plan: answer.plan,
  };
}
