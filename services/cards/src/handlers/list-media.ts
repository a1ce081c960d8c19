// ListMedia: the learner's card files, newest first, each with how many of their cards show it, and the
// storage they use against their plan's quota (the account page shows both).
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { ListMediaRequest, ListMediaResponse } from '@engram/proto/cards/v1/media';
import { z } from 'zod';
import { NEWEST_FIRST, newerFirstAfter, pageOf } from '../domain/cursor.js';
import type { MediaDeps } from '../media/media-deps.js';
import { toProtoMedia } from '../media/media-json.js';
import { usedBytes } from '../media/quota.js';

const MEDIA_PAGE_SIZE = 50;

const listMediaInput = z.object({
  pageSize: z
    .number()
    .int()
    .min(0)
    .max(100, 'A page holds at most 100 files.')
    .transform((size) => size || MEDIA_PAGE_SIZE),
  cursor: z.string(),
});

export function listMedia({ db, quotaOf }: MediaDeps) {
  return async (request: ListMediaRequest, ctx: CallContext): Promise<ListMediaResponse> => {
    const ownerId = ctx.caller.userId;
    const { pageSize, cursor } = parseInput(listMediaInput, request);
    const [rows, used, quota] = await Promise.all([
      db.mediaFile.findMany({
        where: { ownerId, ...newerFirstAfter(cursor) },
        orderBy: NEWEST_FIRST,
        take: pageSize + 1,
        include: { _count: { select: { cards: { where: { card: { ownerId } } } } } },
      }),
      usedBytes(db, ownerId),
      quotaOf(ctx),
    ]);
    const { page, nextCursor } = pageOf(rows, pageSize);
    return {
      items: page.map((file) => toProtoMedia(file, file._count.cards)),
      nextCursor,
      usedBytes: used,
      quotaBytes: quota.quotaBytes,
      plan: quota.plan,
    };
  };
}
