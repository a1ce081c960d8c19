// ListCards: one page of the calling user's cards, newest first, with an opaque cursor to the next;
// optionally only cards carrying every given tag, or matching the search text. The search ignores accents
// and case ("cafe" finds "Café") and looks in the front, the back and the card's tag names; it runs on the
// owner's index (owner, archived, newest first), so a page reads at most the owner's cards, in order, until
// it is full.
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { ListCardsRequest, ListCardsResponse } from '@engram/proto/cards/v1/cards';
import type { Stores } from '../db.js';
import { listCardsSchema } from '../domain/card.js';
import { decodeCursor, pageOf } from '../domain/cursor.js';
import { toProtoCard, WITH_TAGS } from '../domain/to-proto.js';

/**
 * $1 owner, $2 archived, $3 tag ids every card must carry (or null), $4 the LIKE pattern's text (escaped),
 * $5/$6 the cursor's created_at and id (or null), $7 how many. search_fold is the migration's accent- and
 * case-folding function; a card keeps its sides folded by it (front_key, back_key).
 */
const SEARCH_PAGE = `
SELECT c.id FROM cards c
WHERE c.owner_id = $1 AND c.archived = $2
  AND ($3::uuid[] IS NULL OR NOT EXISTS (
    SELECT 1 FROM unnest($3::uuid[]) AS wanted(tag_id)
    WHERE NOT EXISTS (SELECT 1 FROM card_tags ct WHERE ct.card_id = c.id AND ct.tag_id = wanted.tag_id)))
  AND ($5::timestamptz IS NULL OR c.created_at < $5 OR (c.created_at = $5 AND c.id < $6::uuid))
  AND (c.front_key LIKE '%' || search_fold($4) || '%'
    OR c.back_key LIKE '%' || search_fold($4) || '%'
    OR EXISTS (SELECT 1 FROM card_tags ct JOIN tags t ON t.id = ct.tag_id
               WHERE ct.card_id = c.id AND t.owner_id = c.owner_id AND search_fold(t.name) LIKE '%' || search_fold($4) || '%'))
ORDER BY c.created_at DESC, c.id DESC
LIMIT $7`;

/** The search text as LIKE reads it literally: its backslashes, percent signs and underscores escaped. */
export const likeLiteral = (text: string) => text.normalize('NFC').replace(/[\\%_]/g, (c) => `\\${c}`);

export function listCards({ db, pool }: Stores) {
  return async (request: ListCardsRequest, ctx: CallContext): Promise<ListCardsResponse> => {
    const ownerId = ctx.caller.userId;
    const { pageSize, archived, cursor, tagIds, query } = parseInput(listCardsSchema, request);
    const after = cursor ? decodeCursor(cursor) : undefined;
    const wanted = [...new Set(tagIds)];
    const rows = query
      ? await searchPage()
      : await db.card.findMany({
          where: {
            ownerId,
            archived,
            AND: [
              ...wanted.map((tagId) => ({ tags: { some: { tagId } } })),
              ...(after
                ? [
                    {
                      OR: [
                        { createdAt: { lt: after.createdAt } },
                        { createdAt: after.createdAt, id: { lt: after.id } },
                      ],
                    },
                  ]
                : []),
            ],
          },
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          take: pageSize + 1,
          include: WITH_TAGS,
        });
    const { page, nextCursor } = pageOf(rows, pageSize);
    return { items: page.map(toProtoCard), nextCursor };

    async function searchPage() {
      const { rows: found } = await pool.query<{ id: string }>(SEARCH_PAGE, [
        ownerId,
        archived,
        wanted.length > 0 ? wanted : null,
        likeLiteral(query),
        after?.createdAt ?? null,
        after?.id ?? null,
        pageSize + 1,
      ]);
      const ids = found.map((row) => row.id);
      const cards = await db.card.findMany({ where: { id: { in: ids }, ownerId }, include: WITH_TAGS });
      const byId = new Map(cards.map((card) => [card.id, card]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    }
  };
}
