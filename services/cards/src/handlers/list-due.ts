// ListDue: the caller's review items due before their day ends, of cards that are not archived, within their
// presets' daily limits, optionally only of cards with one of the given tags. Items due now come first (learning,
// then review, then new), then those that fall due later today. Each item carries the prompt and answer of its
// own direction, and what each rating would give it now with its preset's options (the rating buttons' labels).

import { listDueInput } from '@engram/contracts/learning';
import { type NextIntervals, nextIntervals } from '@engram/contracts/scheduler';
import { studyDayAround } from '@engram/contracts/study-day';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { ListDueRequest, ListDueResponse } from '@engram/proto/cards/v1/review';
import type { Stores } from '../db.js';
import { cardPresetId } from '../learner/card-preset.js';
import { settingsOf } from '../learner/settings.js';
import { readSettings } from '../learner/settings-store.js';
import { dailyLimits, presetLimits, scheduledByLimit } from '../presets/daily-limits.js';
import { cardTagsJson, type DueItemRow, dueItemOf, noteColumns } from '../review/due-item.js';
import { ITEM_COLUMNS, memoryOf } from '../review/item-row.js';

export const DUE_LIMIT = 500;

// The order: items due by now (learning and relearning, then review, then new), then those that fall due later
// today; each group by due time. Learning steps are never held back; reviews and new cards are, by the daily
// limits of the preset that schedules each card (presets/daily-limits.ts), the earliest due first, so what a
// limit leaves out comes first on the days after. Each group is its own scan of the owner's items in due order,
// cut to the limit (the due index gives that order, so no group sorts all the learner's due items, thousands for
// one who imported a deck), and only the first `limit` of them are joined to their cards.

/** One group's items: of the learner's unarchived cards with one of the tags, due before the day ends. */
const dueGroup = (rank: string, where: string, order: string, limit: string) => `(
    SELECT ${ITEM_COLUMNS}, i.ordinal, ${rank} AS rank
    FROM review_items i
    WHERE i.owner_id = $1 AND ${where} AND i.due < $2 AND NOT i.archived
      AND ($3::uuid[] IS NULL OR EXISTS (
        SELECT 1 FROM card_tags ct WHERE ct.card_id = i.card_id AND ct.tag_id = ANY($3::uuid[])
      ))
    ORDER BY ${order}
    LIMIT ${limit})`;

/** A group held to each preset's daily limit `left` (a column of the limits' rows). */
const limitedGroup = (rank: string, state: string, left: string) => `(
    SELECT limited.* FROM (${presetLimits(6)}) l
    CROSS JOIN LATERAL ${dueGroup(rank, `${state} AND ${scheduledByLimit('$9')}`, 'i.due, i.id', `least($5, l.${left})`)} limited)`;

// Ranks 0–2: due by now, learning, review and new; ranks 3–5: the same, later today.
const LEARNING = 'i.state IN (1, 3)';
const GROUPS = [
  dueGroup('CASE WHEN i.due <= $4 THEN 0 ELSE 3 END', LEARNING, 'i.due, i.id', '$5'),
  limitedGroup('CASE WHEN i.due <= $4 THEN 1 ELSE 4 END', 'i.state = 2', 'reviews_left'),
  limitedGroup('CASE WHEN i.due <= $4 THEN 2 ELSE 5 END', 'i.state NOT IN (1, 2, 3)', 'new_left'),
];

const DUE_ITEMS = `
WITH due AS (
  SELECT * FROM (${GROUPS.join(' UNION ALL ')}) grouped
  ORDER BY rank, due, id
  LIMIT $5
)
SELECT d.*, c.type, c.front, c.back, ${noteColumns('c')},
  CASE WHEN $9 THEN ${cardPresetId('d.card_id', '$1')}::text END AS preset_id,
  ${cardTagsJson('c.id')} AS tags
FROM due d
JOIN cards c ON c.id = d.card_id AND c.owner_id = $1
ORDER BY d.rank, d.due, d.id`;

export function listDue(stores: Stores) {
  const { pool } = stores;
  return async (request: ListDueRequest, ctx: CallContext): Promise<ListDueResponse> => {
    const ownerId = ctx.caller.userId;
    const { tagIds } = parseInput(listDueInput, { tagIds: request.tagIds });
    const limit = request.limit > 0 ? Math.min(request.limit, DUE_LIMIT) : DUE_LIMIT;
    const settings = settingsOf(await readSettings(pool, ownerId));
    const now = new Date();
    const { start, end } = studyDayAround(now, settings.timezone, settings.dayStartHour);
    const limits = await dailyLimits(stores, ownerId, start);
    const { rows } = await pool.query<DueItemRow>(DUE_ITEMS, [
      ownerId,
      end,
      tagIds?.length ? tagIds : null,
      now,
      limit,
      ...limits.values,
    ]);
    // Each item is scheduled with its preset's options. Every new item of a preset gives the same intervals
    // (FSRS reads nothing of an item it has not seen): a deck of hundreds of new cards costs one preview a preset.
    const optionsOf = (presetId: string) => ({ ...settings, ...limits.options.get(presetId) });
    const newItemIntervals = new Map<string, NextIntervals>();
    const intervalsOf = (row: DueItemRow) => {
      const presetId = row.preset_id ?? limits.defaultId;
      const memory = memoryOf(row);
      if (memory.state !== 'new' || memory.reps > 0) return nextIntervals(optionsOf(presetId), memory, now);
      let intervals = newItemIntervals.get(presetId);
      if (!intervals) {
        intervals = nextIntervals(optionsOf(presetId), memory, now);
        newItemIntervals.set(presetId, intervals);
      }
      return intervals;
    };
    return {
      items: rows.map((row) => dueItemOf(row, intervalsOf(row))),
    };
  };
}
