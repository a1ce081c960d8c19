// ListDue: the caller's review items due before their day ends, of cards that are not archived,
// optionally only of cards with one of the given tags. Items due now come first (learning, then
// review, then new), then learning steps that fall due later today. Each item carries the prompt and
// answer of its own direction.

import type { CardType } from '@engram/contracts/learning';
import { listDueInput } from '@engram/contracts/learning';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { ListDueRequest, ListDueResponse } from '@engram/proto/cards/v1/review';
import type { Stores } from '../db.js';
import { renderItem } from '../domain/card-content.js';
import { settingsOf } from '../domain/settings.js';
import { studyDayAround } from '../domain/study-day.js';
import { stateName } from '../review/item-row.js';
import { readSettings } from '../review/settings-store.js';

export const DUE_LIMIT = 500;

// The order: items due by now (learning and relearning, then review, then new), then learning steps
// that fall due later today; each group by due time. Each group is its own scan of the owner's items in
// due order, cut to the limit (the due index gives that order, so no group sorts all the learner's due
// items, thousands for one who imported a deck), and only the first `limit` of them are joined to
// their cards.
const CLASS_OF_STATE = 'CASE i.state WHEN 1 THEN 0 WHEN 3 THEN 0 WHEN 2 THEN 1 ELSE 2 END';

/** One group's items: due now or later today, of the learner's unarchived cards with one of the tags. */
const dueGroup = (group: string, dueWhen: string, state: string, order = 'i.due, i.id') => `(
    SELECT i.id, i.card_id, i.ordinal, i.state, i.due, i.reps, i.lapses, ${group} AS rank
    FROM review_items i
    WHERE i.owner_id = $1 AND ${dueWhen} AND i.due < $2 AND ${state} AND NOT i.archived
      AND ($3::uuid[] IS NULL OR EXISTS (
        SELECT 1 FROM card_tags ct WHERE ct.card_id = i.card_id AND ct.tag_id = ANY($3::uuid[])
      ))
    ORDER BY ${order}
    LIMIT $5)`;

const DUE_ITEMS = `
WITH due AS (
  SELECT * FROM (
    ${dueGroup('0', 'i.due <= $4', 'i.state IN (1, 3)')}
    UNION ALL
    ${dueGroup('1', 'i.due <= $4', 'i.state = 2')}
    UNION ALL
    ${dueGroup('2', 'i.due <= $4', 'i.state NOT IN (1, 2, 3)')}
    UNION ALL
    ${dueGroup(`3 + ${CLASS_OF_STATE}`, 'i.due > $4', 'true', `3 + ${CLASS_OF_STATE}, i.due, i.id`)}
  ) grouped
  ORDER BY rank, due, id
  LIMIT $5
)
SELECT d.id, d.card_id, d.ordinal, d.state, d.due, d.reps, d.lapses, c.type, c.front, c.back,
  COALESCE((
    SELECT json_agg(json_build_object('id', t.id, 'name', t.name) ORDER BY t.name_key)
    FROM card_tags ct JOIN tags t ON t.id = ct.tag_id WHERE ct.card_id = c.id
  ), '[]'::json) AS tags
FROM due d
JOIN cards c ON c.id = d.card_id AND c.owner_id = $1
ORDER BY d.rank, d.due, d.id`;

interface DueRow {
  id: string;
  card_id: string;
  ordinal: number;
  state: number;
  due: Date;
  reps: number;
  lapses: number;
  type: CardType;
  front: string;
  back: string;
  tags: { id: string; name: string }[];
}

export function listDue({ pool }: Stores) {
  return async (request: ListDueRequest, ctx: CallContext): Promise<ListDueResponse> => {
    const ownerId = ctx.caller.userId;
    const { tagIds } = parseInput(listDueInput, { tagIds: request.tagIds });
    const limit = request.limit > 0 ? Math.min(request.limit, DUE_LIMIT) : DUE_LIMIT;
    const settings = settingsOf(await readSettings(pool, ownerId));
    const now = new Date();
    const { end } = studyDayAround(now, settings.timezone, settings.dayStartHour);
    const { rows } = await pool.query<DueRow>(DUE_ITEMS, [ownerId, end, tagIds?.length ? tagIds : null, now, limit]);
    return {
      items: rows.map((row) => {
        const { prompt, answer } = renderItem(row.type, row.ordinal, row.front, row.back);
        return {
          id: row.id,
          cardId: row.card_id,
          front: prompt,
          back: answer,
          type: row.type,
          tags: row.tags,
          state: stateName(row.state),
          due: row.due,
          reps: row.reps,
          lapses: row.lapses,
          ordinal: row.ordinal,
        };
      }),
    };
  };
}
