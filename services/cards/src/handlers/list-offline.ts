// ListOffline: what a device keeps to practise without the network (issue 29). The learner's unarchived items
// due by the end of the horizon's last day (learning and review, the earliest first, at most OFFLINE_MAX_ITEMS),
// then new items (of each preset, as many as it starts over the horizon), each with its whole memory state
// and its preset (learner/card-preset.ts); what the learner did of each preset's limits today; and how many items
// fall due on each of their days from today on, which spreading reviews within fuzz weighs on the device as here.
import { OFFLINE_HORIZON_DAYS, OFFLINE_MAX_ITEMS, offlineSetInput } from '@engram/contracts/offline';
import { addDays, studyDayAround, studyDayStart } from '@engram/contracts/study-day';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { ListOfflineRequest, ListOfflineResponse } from '@engram/proto/cards/v1/review';
import type { Stores } from '../db.js';
import { cardPresetId } from '../learner/card-preset.js';
import { settingsOf } from '../learner/settings.js';
import { readSettings } from '../learner/settings-store.js';
import { learnerDayOf } from '../learner/study-days.js';
import { dailyLimits, presetLimits, scheduledByLimit } from '../presets/daily-limits.js';
import { cardTagsJson, type DueItemRow, dueItemOf, noteColumns } from '../review/due-item.js';
import { ITEM_COLUMNS, itemState, memoryOf } from '../review/item-row.js';

// $1 owner, $2 the horizon's end, $3 most items; $4–$7 each preset's new items to keep (daily-limits.ts's
// presetLimits: ids, how many, unused, whether presets have tags).
const OFFLINE_ITEMS = `
WITH kept AS (
  (SELECT ${ITEM_COLUMNS}, i.ordinal, 0 AS part FROM review_items i
   WHERE i.owner_id = $1 AND NOT i.archived AND i.state <> 0 AND i.due < $2
   ORDER BY i.due, i.id LIMIT $3)
  UNION ALL
  (SELECT limited.* FROM (${presetLimits(4)}) l
   CROSS JOIN LATERAL (
     SELECT ${ITEM_COLUMNS}, i.ordinal, 1 AS part FROM review_items i
     WHERE i.owner_id = $1 AND NOT i.archived AND i.state = 0 AND ${scheduledByLimit('$7')}
     ORDER BY i.due, i.id LIMIT l.new_left) limited)
)
SELECT k.*, c.type, c.front, c.back, ${noteColumns('c')}, ${cardPresetId('k.card_id', '$1')}::text AS preset_id,
  ${cardTagsJson('c.id')} AS tags
FROM kept k JOIN cards c ON c.id = k.card_id AND c.owner_id = $1
ORDER BY k.part, k.due, k.id`;

const DUE_DAYS = `
SELECT to_char(${learnerDayOf('due', '$1')}, 'YYYY-MM-DD') AS day, count(*)::int AS items
FROM review_items WHERE owner_id = $1 AND NOT archived AND due >= $2
GROUP BY 1 ORDER BY 1`;

export function listOffline(stores: Stores) {
  const { pool } = stores;
  return async (request: ListOfflineRequest, ctx: CallContext): Promise<ListOfflineResponse> => {
    const ownerId = ctx.caller.userId;
    const input = parseInput(offlineSetInput, request.horizonDays ? { horizonDays: request.horizonDays } : {});
    const horizonDays = input.horizonDays ?? OFFLINE_HORIZON_DAYS;
    const settings = settingsOf(await readSettings(pool, ownerId));
    const now = new Date();
    const { today, start } = studyDayAround(now, settings.timezone, settings.dayStartHour);
    const horizonEnd = studyDayStart(addDays(today, horizonDays), settings.timezone, settings.dayStartHour);
    const limits = await dailyLimits(stores, ownerId, start);
    // Of each preset's new cards, as many as it starts over the horizon, the earliest first (its own, so a preset
    // whose cards come after another's is kept too).
    const [ids, , , byTag] = limits.values;
    const newToKeep = limits.newPerDay.map((perDay) => Math.min(OFFLINE_MAX_ITEMS, perDay * horizonDays));
    const [{ rows }, { rows: dueDays }] = await Promise.all([
      pool.query<DueItemRow>(OFFLINE_ITEMS, [
        ownerId,
        horizonEnd,
        OFFLINE_MAX_ITEMS + 1,
        ids,
        newToKeep,
        newToKeep,
        byTag,
      ]),
      pool.query<{ day: string; items: number }>(DUE_DAYS, [ownerId, start]),
    ]);
    const seen = rows.filter((row) => row.state !== 0);
    const kept = seen.length > OFFLINE_MAX_ITEMS ? rows.filter((row) => row !== seen[OFFLINE_MAX_ITEMS]) : rows;
    return {
      generatedAt: now,
      items: kept.map((row) => ({
        item: dueItemOf(row),
        memory: itemState(memoryOf(row)),
        presetId: row.preset_id ?? '',
      })),
      doneToday: limits.done.map((row) => ({
        presetId: row.preset_id ?? '',
        newCards: row.new_done,
        reviews: row.reviews_done,
      })),
      dueDays,
      complete: seen.length <= OFFLINE_MAX_ITEMS,
    };
  };
}
