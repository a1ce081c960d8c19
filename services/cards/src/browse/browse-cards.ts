// BrowseCards and CountCards: the learner's cards a search in Anki's syntax finds (a card when any of its review
// items matches: search/card-search-sql.ts), sorted, a page at a time. Sorted by when they were added (the default),
// by due (cards.due, kept by triggers on review items) or by front, a page reads an index of the owner's cards in
// that order and stops once it is full; the other sorts read an aggregate of each matching card's review items. Pages follow an offset cursor (sorts by aggregates have no keyset to follow).

import { browseInput, countInput } from '@engram/contracts/browse';
import { Invalid } from '@engram/kit/errors';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type * as Proto from '@engram/proto/cards/v1/browse';
import type { Stores } from '../db.js';
import { learnerSearch } from '../search/learner-search.js';

export const CARD_SEARCH_INVALID = 'CARD_SEARCH_INVALID';

/** The condition of `query` on `c` (a card) for `ownerId` ($1), its parameters from $2 on. */
export async function searchedCards(stores: Stores, ownerId: string, query: string) {
  const search = await learnerSearch(
    stores,
    ownerId,
    query,
    (error) => new Invalid(error.message, CARD_SEARCH_INVALID),
  );
  if (!search) return { where: 'c.owner_id = $1', params: [] as unknown[] };
  const items = search.itemWhere
    ? ` AND EXISTS (SELECT 1 FROM review_items ri WHERE ri.card_id = c.id AND ri.owner_id = $1 AND ${search.itemWhere})`
    : '';
  return { where: `c.owner_id = $1 AND ${search.cardWhere}${items}`, params: search.params };
}

/**
 * Each sort's key, newest, latest or largest first unless ascending. Descending is ascending reversed: cards with no
 * due (all new) come last when soonest is first, and first when latest is. Added, due and front read an index of the
 * owner's cards, so a page stops once full; the others add up each matching card's review items.
 */
const SORT_KEYS: Record<string, string> = {
  added: 'c.created_at',
  due: 'c.due',
  interval: '(SELECT max(i.scheduled_days) FROM review_items i WHERE i.card_id = c.id)',
  front: 'c.first_key',
  reps: '(SELECT sum(i.reps) FROM review_items i WHERE i.card_id = c.id)',
  lapses: '(SELECT sum(i.lapses) FROM review_items i WHERE i.card_id = c.id)',
};

const STATES = ['new', 'learning', 'review', 'relearning'];

interface BrowseRow {
  id: string;
  number: string;
  type: string;
  front: string;
  back: string;
  archived: boolean;
  created_at: Date;
  due: Date | null;
  interval_days: number | null;
  reps: number | null;
  lapses: number | null;
  state: number | null;
  tags: { id: string; name: string }[];
}

/** The Browse rows of these cards of `ownerId`, in the order of `ids`. */
export async function browseRows(stores: Stores, ownerId: string, ids: string[]): Promise<Proto.BrowseCard[]> {
  if (ids.length === 0) return [];
  const { rows } = await stores.pool.query<BrowseRow>(
    `SELECT c.id, c.number, c.type, c.front, c.back, c.archived, c.created_at,
       c.due,
       (SELECT max(i.scheduled_days) FROM review_items i WHERE i.card_id = c.id) AS interval_days,
       (SELECT sum(i.reps)::int FROM review_items i WHERE i.card_id = c.id) AS reps,
       (SELECT sum(i.lapses)::int FROM review_items i WHERE i.card_id = c.id) AS lapses,
       (SELECT max(i.state) FROM review_items i WHERE i.card_id = c.id) AS state,
       COALESCE((SELECT json_agg(json_build_object('id', t.id, 'name', t.name) ORDER BY t.name_key)
         FROM card_tags ct JOIN tags t ON t.id = ct.tag_id WHERE ct.card_id = c.id), '[]') AS tags
     FROM cards c WHERE c.owner_id = $1 AND c.id = ANY($2::uuid[])`,
    [ownerId, ids],
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    return [
      {
        id: row.id,
        number: Number(row.number),
        type: row.type,
        front: row.front,
        back: row.back,
        tags: row.tags,
        archived: row.archived,
        createdAt: row.created_at,
        due: row.due ?? undefined,
        intervalDays: row.interval_days ?? 0,
        reps: row.reps ?? 0,
        lapses: row.lapses ?? 0,
        state: STATES[row.state ?? 0] ?? 'new',
      },
    ];
  });
}

const offsetOf = (cursor: string | undefined) => {
  if (!cursor) return 0;
  const offset = Number(Buffer.from(cursor, 'base64url').toString());
  if (!Number.isSafeInteger(offset) || offset < 0) throw new Invalid('The cursor is not valid.', 'INVALID_CURSOR');
  return offset;
};

export function browseCards(stores: Stores) {
  return async (request: Proto.BrowseCardsRequest, ctx: CallContext): Promise<Proto.BrowseCardsResponse> => {
    const ownerId = ctx.caller.userId;
    const input = parseInput(browseInput, {
      query: request.query,
      sort: request.sort || undefined,
      ascending: request.ascending,
      pageSize: request.pageSize || undefined,
      cursor: request.cursor || undefined,
    });
    const offset = offsetOf(input.cursor);
    const { where, params } = await searchedCards(stores, ownerId, input.query);
    const direction = input.ascending ? 'ASC' : 'DESC';
    const limit = `$${params.length + 2}`;
    const skip = `$${params.length + 3}`;
    const { rows } = await stores.pool.query<{ id: string }>(
      `SELECT c.id FROM cards c WHERE ${where}
       ORDER BY ${SORT_KEYS[input.sort]} ${direction}, c.id ${direction}
       LIMIT ${limit} OFFSET ${skip}`,
      [ownerId, ...params, input.pageSize + 1, offset],
    );
    const ids = rows.slice(0, input.pageSize).map((row) => row.id);
    return {
      items: await browseRows(stores, ownerId, ids),
      nextCursor:
        rows.length > input.pageSize ? Buffer.from(String(offset + input.pageSize)).toString('base64url') : '',
    };
  };
}

export function countCards(stores: Stores) {
  return async (request: Proto.CountCardsRequest, ctx: CallContext): Promise<Proto.CountCardsResponse> => {
    const ownerId = ctx.caller.userId;
    const { query } = parseInput(countInput, { query: request.query });
    const { where, params } = await searchedCards(stores, ownerId, query);
    const { rows } = await stores.pool.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM cards c WHERE ${where}`,
      [ownerId, ...params],
    );
    return { count: rows[0]?.count ?? 0 };
  };
}
