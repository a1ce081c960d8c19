// FindDuplicates: the learner's cards whose first side is the same once markup, media, spaces, accents and case
// are set aside (cards.first_key, the key AnkiConnect's duplicate check compares), in groups, the largest first.
import { duplicatesInput } from '@engram/contracts/browse';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type * as Proto from '@engram/proto/cards/v1/browse';
import type { Stores } from '../db.js';
import { browseRows } from './browse-cards.js';

export function findDuplicates(stores: Stores) {
  return async (request: Proto.FindDuplicatesRequest, ctx: CallContext): Promise<Proto.FindDuplicatesResponse> => {
    const ownerId = ctx.caller.userId;
    const { limit } = parseInput(duplicatesInput, { limit: request.limit || undefined });
    const { rows } = await stores.pool.query<{ key: string; ids: string[] }>(
      `SELECT first_key AS key, array_agg(id ORDER BY created_at, id) AS ids FROM cards
       WHERE owner_id = $1 AND first_key <> '' GROUP BY first_key HAVING count(*) > 1
       ORDER BY count(*) DESC, first_key LIMIT $2`,
      [ownerId, limit],
    );
    const cards = await browseRows(
      stores,
      ownerId,
      rows.flatMap((row) => row.ids),
    );
    const byId = new Map(cards.map((card) => [card.id, card]));
    return {
      groups: rows.map((row) => ({ key: row.key, cards: row.ids.flatMap((id) => byId.get(id) ?? []) })),
    };
  };
}
