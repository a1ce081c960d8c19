// What Anki's tools read: notes and cards by search (findNotes, findCards) and by id (notesInfo, cardsInfo),
// whether cards are suspended. A note is one of the learner's cards, its id the card's number; an Anki card one
// of its review items. Every read names the owner first: another learner's numbers find nothing.

import { cardItem } from '@engram/contracts/note-types';
import type { Stores } from '../db.js';
import { type NoteTypeRow, noteTypeFromRow, noteTypeJson } from '../domain/note-types.js';
import { learnerSearch } from '../search/learner-search.js';
import { ankiError } from './anki-error.js';
import { DECK_OF_CARD } from './decks.js';
import { sidesToHtml } from './fields.js';
import { noteTypeOfCard, noteTypesOf, ordOf, templateOf, valuesOf } from './note-types.js';

const DAY_MS = 86_400_000;

/** The numbers of the learner's notes (or cards) a search in Anki's syntax finds, oldest first. */
export async function findNumbers(
  stores: Stores,
  ownerId: string,
  query: unknown,
  what: 'notes' | 'cards',
): Promise<number[]> {
  const search = await learnerSearch(stores, ownerId, typeof query === 'string' ? query : '', (error) =>
    ankiError(`Invalid search: ${error.message}`),
  );
  const { where, params } = search ?? { where: 'TRUE', params: [] };
  const column = what === 'notes' ? 'c.number' : 'ri.number';
  const { rows } = await stores.pool.query<{ number: string }>(
    `SELECT DISTINCT ${column} AS number FROM review_items ri JOIN cards c ON c.id = ri.card_id
     WHERE ri.owner_id = $1 AND c.owner_id = $1 AND (${where}) ORDER BY 1`,
    [ownerId, ...params],
  );
  return rows.map((row) => Number(row.number));
}

/**
 * The most notes or cards notesInfo and cardsInfo render at once: each is rendered to Anki's HTML in the process that
 * serves everyone's calls, so a tool asks for a large collection a part at a time.
 */
export const INFO_MAX_IDS = 2_000;

/** Whole numbers from a list of ids as the tools send them (numbers, or strings of digits); others are left out. */
export function numbersOf(ids: unknown, max = Number.POSITIVE_INFINITY): string[] {
  if (!Array.isArray(ids)) throw ankiError('a list of ids is needed');
  if (ids.length > max)
    throw ankiError(`at most ${max.toLocaleString('en')} ids at once: ask for the rest in another call`);
  return ids.flatMap((id) => (/^\d{1,18}$/.test(String(id)) ? [String(id)] : []));
}

interface NoteRow {
  number: string;
  type: string;
  front: string;
  back: string;
  note_type_id: string | null;
  fields: string[] | null;
  mod: number;
  tags: string[];
  cards: string[];
}

/** Each row's values rendered to Anki's HTML, in one pass resolving every file they show. */
async function valuesToHtml(stores: Stores, ownerId: string, rows: string[][]): Promise<string[][]> {
  const html = await sidesToHtml(stores.db, ownerId, rows.flat());
  let at = 0;
  return rows.map((values) => values.map(() => html[at++] ?? ''));
}

/** notesInfo: each note asked for, in order, or `{}` for one the learner does not have. */
export async function notesInfo(stores: Stores, ownerId: string, ids: unknown) {
  const numbers = numbersOf(ids, INFO_MAX_IDS);
  const { rows } = await stores.pool.query<NoteRow>(
    `SELECT c.number, c.type, c.front, c.back, c.note_type_id, c.fields,
       floor(extract(epoch FROM c.updated_at))::int AS mod,
       ARRAY(SELECT t.name FROM card_tags ct JOIN tags t ON t.id = ct.tag_id
             WHERE ct.card_id = c.id AND NOT t.anki_deck ORDER BY t.name_key) AS tags,
       ARRAY(SELECT ri.number FROM review_items ri WHERE ri.card_id = c.id ORDER BY ri.ordinal) AS cards
     FROM cards c WHERE c.owner_id = $1 AND c.number = ANY($2::bigint[])`,
    [ownerId, numbers],
  );
  const types = await noteTypesOf(stores.db, ownerId);
  const html = await valuesToHtml(stores, ownerId, rows.map(valuesOf));
  const byNumber = new Map(
    rows.map((row, index) => {
      const noteType = noteTypeOfCard(types, { type: row.type, noteTypeId: row.note_type_id });
      return [
        row.number,
        {
          noteId: Number(row.number),
          profile: 'Engram',
          modelName: noteType.name,
          tags: row.tags,
          fields: Object.fromEntries(
            noteType.fields.map((field, order) => [field, { value: html[index]?.[order] ?? '', order }]),
          ),
          mod: row.mod,
          cards: row.cards.map(Number),
        },
      ];
    }),
  );
  return (Array.isArray(ids) ? ids : []).map((id) => byNumber.get(String(id)) ?? {});
}

interface CardRow extends Omit<NoteRow, 'tags' | 'cards'> {
  note_type: NoteTypeRow | null;
  item: string;
  ordinal: number;
  state: number;
  due: Date;
  scheduled_days: number;
  reps: number;
  lapses: number;
  archived: boolean;
  difficulty: number;
  deck: string;
}

/** Anki's queue of an item: -1 suspended, 0 new, 1 learning, 2 review, 3 relearning. */
const queueOf = (row: CardRow) => (row.archived ? -1 : row.state);

/**
 * Anki's due of an item: a new card's position (its note number), a learning card's due time in seconds, a
 * review card's day (days since 1970, as Engram has no collection creation day to count from).
 */
function dueOf(row: CardRow): number {
  if (row.state === 0) return Number(row.number);
  if (row.state === 1 || row.state === 3) return Math.floor(row.due.getTime() / 1000);
  return Math.floor(row.due.getTime() / DAY_MS);
}

/** Where Anki's reviewer puts the box to type a typed card's Back in. */
const TYPE_BACK = '[[type:Back]]';

/** cardsInfo: each card asked for, in order, or `{}` for one the learner does not have. */
export async function cardsInfo(stores: Stores, ownerId: string, ids: unknown) {
  const numbers = numbersOf(ids, INFO_MAX_IDS);
  const { rows } = await stores.pool.query<CardRow>(
    `SELECT ri.number AS item, ri.ordinal, ri.state, ri.due, ri.scheduled_days, ri.reps, ri.lapses, ri.archived,
       ri.difficulty, c.number, c.type, c.front, c.back, c.note_type_id, c.fields, ${noteTypeJson('c')} AS note_type,
       floor(extract(epoch FROM c.updated_at))::int AS mod,
       ${DECK_OF_CARD} AS deck
     FROM review_items ri JOIN cards c ON c.id = ri.card_id
     WHERE ri.owner_id = $1 AND c.owner_id = $1 AND ri.number = ANY($2::bigint[])`,
    [ownerId, numbers],
  );
  const types = await noteTypesOf(stores.db, ownerId);
  // A note's question and answer are its template's, rendered, a box to type in as Anki marks it for its reviewer
  // (`[[type:Field]]`); another card's are its sides (each way round).
  const noteItems = rows.map((row) => {
    const noteType = noteTypeFromRow(row.note_type_id, row.note_type);
    if (row.type !== 'note' || !noteType) return undefined;
    const note = { type: noteType, fields: row.fields ?? [] };
    return cardItem({ type: 'note', front: row.front, back: row.back, note }, row.ordinal, { ankiTypeMarks: true });
  });
  const html = await valuesToHtml(
    stores,
    ownerId,
    rows.map((row, index) => {
      const item = noteItems[index];
      return [...valuesOf(row), ...(item ? [item.prompt, item.answer] : [])];
    }),
  );
  const byNumber = new Map(
    rows.map((row, index) => {
      const noteType = noteTypeOfCard(types, { type: row.type, noteTypeId: row.note_type_id });
      const values = html[index] ?? [];
      const [front = '', back = ''] = values;
      const ord = ordOf(noteType, row.ordinal);
      const backwards = noteType.type === 'reversed' && row.ordinal === 1;
      const [question = '', answer = ''] = noteItems[index]
        ? values.slice(-2)
        : backwards
          ? [back, front]
          : [front, back];
      // A typed card as Anki renders its stock type ({{Front}} and {{type:Back}}, the answer without {{FrontSide}}).
      const typed = row.type === 'typed';
      return [
        row.item,
        {
          cardId: Number(row.item),
          note: Number(row.number),
          deckName: row.deck,
          modelName: noteType.name,
          template: templateOf(noteType, row.ordinal),
          fieldOrder: ord,
          ord,
          fields: Object.fromEntries(
            noteType.fields.map((field, order) => [field, { value: values[order] ?? '', order }]),
          ),
          question: typed ? `${front}\n\n${TYPE_BACK}` : question,
          answer: typed ? `${front}\n\n<hr id=answer>\n\n${TYPE_BACK}` : `${question}<hr id=answer>${answer}`,
          css: '',
          type: row.state,
          queue: queueOf(row),
          due: dueOf(row),
          interval: row.scheduled_days,
          // Anki's ease in permille; FSRS has difficulty instead, shown here as Anki shows it (0-100 %).
          factor: row.state === 0 ? 0 : Math.round(((row.difficulty - 1) / 9) * 1000),
          reps: row.reps,
          lapses: row.lapses,
          left: 0,
          mod: row.mod,
          flags: 0,
        },
      ];
    }),
  );
  return (Array.isArray(ids) ? ids : []).map((id) => byNumber.get(String(id)) ?? {});
}

/** areSuspended: for each card, whether it is suspended (archived), or null when the learner has no such card. */
export async function areSuspended(stores: Stores, ownerId: string, ids: unknown) {
  const numbers = numbersOf(ids);
  const { rows } = await stores.pool.query<{ number: string; archived: boolean }>(
    'SELECT number, archived FROM review_items WHERE owner_id = $1 AND number = ANY($2::bigint[])',
    [ownerId, numbers],
  );
  const byNumber = new Map(rows.map((row) => [row.number, row.archived]));
  return (Array.isArray(ids) ? ids : []).map((id) => byNumber.get(String(id)) ?? null);
}
