// ListCards: one page of the calling user's cards, newest first, with an opaque cursor to the next;
// optionally only cards carrying every given tag, or whose text contains the search text.
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { ListCardsRequest, ListCardsResponse } from '@engram/proto/cards/v1/cards';
import type { Stores } from '../db.js';
import { listCardsSchema } from '../domain/card.js';
import { decodeCursor, encodeCursor } from '../domain/cursor.js';
import { toProtoCard, WITH_TAGS } from './to-proto.js';

export function listCards({ db }: Stores) {
  return async (request: ListCardsRequest, ctx: CallContext): Promise<ListCardsResponse> => {
    const ownerId = ctx.caller.userId;
    const { pageSize, archived, cursor, tagIds, query } = parseInput(listCardsSchema, request);
    const after = cursor ? decodeCursor(cursor) : undefined;
    const rows = await db.card.findMany({
      where: {
        ownerId,
        archived,
        AND: [
          ...[...new Set(tagIds)].map((tagId) => ({ tags: { some: { tagId } } })),
          ...(query
            ? [
                {
                  OR: [
                    { front: { contains: query, mode: 'insensitive' as const } },
                    { back: { contains: query, mode: 'insensitive' as const } },
                  ],
                },
              ]
            : []),
          ...(after
            ? [{ OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }]
            : []),
        ],
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: pageSize + 1,
      include: WITH_TAGS,
    });
    const page = rows.slice(0, pageSize);
    const last = page.at(-1);
    return {
      items: page.map(toProtoCard),
      nextCursor: rows.length > pageSize && last ? encodeCursor(last) : '',
    };
  };
}
