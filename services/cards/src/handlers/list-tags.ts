// ListTags: one page of the caller's tags, by name.
import type { CallContext } from '@engram/kit/grpc/server';
import { pageOf } from '@engram/kit/keyset';
import { parseInput } from '@engram/kit/validation';
import type * as Proto from '@engram/proto/cards/v1/cards';
import type { Stores } from '../db.js';
import { listTagsSchema } from '../domain/card.js';
import { decodeTagCursor, encodeTagCursor } from '../domain/cursor.js';
import { toProtoTag } from '../domain/to-proto.js';

export function listTags({ db }: Stores) {
  return async (request: Proto.ListTagsRequest, ctx: CallContext): Promise<Proto.ListTagsResponse> => {
    const { pageSize, cursor } = parseInput(listTagsSchema, request);
    const after = cursor ? decodeTagCursor(cursor) : undefined;
    const rows = await db.tag.findMany({
      where: {
        ownerId: ctx.caller.userId,
        ...(after && { OR: [{ nameKey: { gt: after.nameKey } }, { nameKey: after.nameKey, id: { gt: after.id } }] }),
      },
      orderBy: [{ nameKey: 'asc' }, { id: 'asc' }],
      take: pageSize + 1,
    });
    const { items, nextCursor } = pageOf(rows, pageSize, encodeTagCursor);
    return { items: items.map(toProtoTag), nextCursor };
  };
}
