// A review item as practice shows it: the row the due list and the offline set read (the item, its card's type,
// text and tags, the preset that schedules it) and the DueItem it becomes, with the prompt and answer of its own
// direction.
import { reviewItem } from '@engram/contracts/cloze';
import type { CardType } from '@engram/contracts/learning';
import type { NextIntervals } from '@engram/contracts/scheduler';
import type { DueItem } from '@engram/proto/cards/v1/review';
import { type ItemRow, stateName } from './item-row.js';

/** SQL: the tags of card `card` as a JSON array of {id, name}, by name. */
export const cardTagsJson = (card: string) => `COALESCE((
    SELECT json_agg(json_build_object('id', t.id, 'name', t.name) ORDER BY t.name_key)
    FROM card_tags ct JOIN tags t ON t.id = ct.tag_id WHERE ct.card_id = ${card}
  ), '[]'::json)`;

export interface DueItemRow extends ItemRow {
  ordinal: number;
  type: CardType;
  front: string;
  back: string;
  tags: { id: string; name: string }[];
  preset_id: string | null;
}

/** The DueItem of `row`; `nextIntervals`, what each rating would give it now (unset: the caller works them out). */
export function dueItemOf(row: DueItemRow, nextIntervals?: NextIntervals): DueItem {
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
    nextIntervals,
  };
}
