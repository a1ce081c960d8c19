// A review item as practice shows it: the row the due list and the offline set read (the item, its card's type,
// text and tags, the preset that schedules it) and the DueItem it becomes, with the prompt and answer of its own
// direction.
import type { CardType } from '@engram/contracts/learning';
import { cardItem } from '@engram/contracts/note-types';
import type { NextIntervals } from '@engram/contracts/scheduler';
import type { DueItem } from '@engram/proto/cards/v1/review';
import { type NoteTypeRow, noteTypeFromRow, noteTypeJson } from '../domain/note-types.js';
import { type ItemRow, stateName } from './item-row.js';

/** SQL: the columns a due item's card adds for its note (card aliased `card`): its note type and fields. */
export const noteColumns = (card: string) =>
  `${card}.note_type_id, ${card}.fields AS note_fields, ${noteTypeJson(card)} AS note_type`;

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
  note_type_id: string | null;
  note_fields: string[] | null;
  note_type: NoteTypeRow | null;
}

/** The DueItem of `row`; `nextIntervals`, what each rating would give it now (unset: the caller works them out). */
export function dueItemOf(row: DueItemRow, nextIntervals?: NextIntervals): DueItem {
  const noteType = noteTypeFromRow(row.note_type_id, row.note_type);
  const note = noteType && { type: noteType, fields: row.note_fields ?? [], tags: row.tags.map((tag) => tag.name) };
  const { prompt, answer, typed } = cardItem({ ...row, ...(note && { note }) }, row.ordinal);
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
    typedAnswer: typed?.expected ?? '',
    typedIgnoreAccents: typed?.ignoreAccents ?? false,
    noteTypeId: row.note_type_id ?? '',
  };
}
