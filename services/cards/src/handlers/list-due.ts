// ListDue: the caller's review items due before their day ends, of cards that are not archived,
// optionally only of cards with one of the given tags. Items due now come first (learning, then
// review, then new), then learning steps that fall due later today. Each item carries the prompt and
// answer of its own direction, and what each rating would give it now (the rating buttons' labels).

import { reviewItem } from '@engram/contracts/cloze';
import type { CardType } from '@engram/contracts/learning';
import { listDueInput } from '@engram/contracts/learning';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { ListDueRequest, ListDueResponse } from '@engram/proto/cards/v1/review';
import type { Stores } from '../db.js';
import { type NextIntervals, nextIntervals } from '../domain/scheduler.js';
import { settingsOf } from '../domain/settings.js';
import { studyDayAround } from '../domain/study-day.js';
import { ITEM_COLUMNS, type ItemRow, memoryOf, stateName } from '../review/item-row.js';
import { readSettings } from '../review/settings-store.js';

export const DUE_LIMIT = 500;

// The order: items due by now (learning and relearning, then review, then new), then learning steps
// that fall due later today; each group by due time. Each group is its own scan of the owner's items in
// due order, cut to the limit (the due index gives that order, so no group sorts all the learner's due
// items, thousands for one who imported a deck), and only the first `limit` of them are joined to
// their cards.

// The state classes in session order: learning and relearning, review, new. Each is a plain condition on
// the state (filtered by a CASE instead, the planner sorted every due item again: listDue p50 11 → 16 ms).
const STATE_CLASSES = ['i.state IN (1, 3)', 'i.state = 2', 'i.state NOT IN (1, 2, 3)'];
const CLASS_OF_STATE = `CASE WHEN ${STATE_CLASSES[0]} THEN 0 WHEN ${STATE_CLASSES[1]} THEN 1 ELSE 2 END`;

/** One group's items, ranked `rank`: of the learner's unarchived cards with one of the tags, due before the day ends. */
const dueGroup = (rank: string, where: string, order: string) => `(
    SELECT ${ITEM_COLUMNS}, i.ordinal, ${rank} AS rank
    FROM review_items i
    WHERE i.owner_id = $1 AND ${where} AND i.due < $2 AND NOT i.archived
      AND ($3::uuid[] IS NULL OR EXISTS (
        SELECT 1 FROM card_tags ct WHERE ct.card_id = i.card_id AND ct.tag_id = ANY($3::uuid[])
      ))
    ORDER BY ${order}
    LIMIT $5)`;

// Ranks 0–2: due by now, one state class each; ranks 3–5: later today, by state class.
const GROUPS = [
  ...STATE_CLASSES.map((inClass, stateClass) =>
    dueGroup(String(stateClass), `i.due <= $4 AND ${inClass}`, 'i.due, i.id'),
  ),
  dueGroup(`3 + ${CLASS_OF_STATE}`, 'i.due > $4', `${CLASS_OF_STATE}, i.due, i.id`),
];

const DUE_ITEMS = `
WITH due AS (
  SELECT * FROM (${GROUPS.join(' UNION ALL ')}) grouped
  ORDER BY rank, due, id
  LIMIT $5
)
SELECT d.*, c.type, c.front, c.back,
  COALESCE((
    SELECT json_agg(json_build_object('id', t.id, 'name', t.name) ORDER BY t.name_key)
    FROM card_tags ct JOIN tags t ON t.id = ct.tag_id WHERE ct.card_id = c.id
  ), '[]'::json) AS tags
FROM due d
JOIN cards c ON c.id = d.card_id AND c.owner_id = $1
ORDER BY d.rank, d.due, d.id`;

interface DueRow extends ItemRow {
  ordinal: number;
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
    // Every new item gives the same intervals (FSRS reads nothing of an item it has not seen): a deck of
    // hundreds of new cards costs one preview, not hundreds.
    let newItemIntervals: NextIntervals | undefined;
    const intervalsOf = (row: DueRow) => {
      const memory = memoryOf(row);
      if (memory.state !== 'new' || memory.reps > 0) return nextIntervals(settings, memory, now);
      newItemIntervals ??= nextIntervals(settings, memory, now);
      return newItemIntervals;
    };
    return {
      items: rows.map((row) => {
        const { prompt, answer } = reviewItem(row.type, row.ordinal, row.front, row.back);
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
          nextIntervals: intervalsOf(row),
        };
      }),
    };
  };
}
