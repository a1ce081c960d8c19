// The note types Anki's tools see: Anki's stock ones as Engram's card types ("Basic", "Basic (and reversed card)"
// and "Basic (type in the answer)" with the fields Front and Back, Cloze with Text and Back Extra, Image Occlusion
// with Occlusion (the card's front: its header, picture and shapes, @engram/contracts/occlusion) and Back Extra,
// a note's first field the card's front and its second the back), "Basic (optional reversed card)", and the
// learner's own note types (issue 45), whose notes keep every field. The learner's own are theirs alone.
import type { CardType } from '@engram/contracts/learning';
import { stockNoteType } from '@engram/contracts/note-types';
import type { Db } from '../db.js';
import { shapeOfRow } from '../domain/note-types.js';
import { modelNotFound } from './anki-error.js';

export interface NoteType {
  /** The id AnkiConnect answers for it (modelNamesAndIds). */
  id: number;
  name: string;
  type: CardType;
  fields: readonly string[];
  /** Its card templates' names, one per review item ordinal (a cloze has one template for every deletion). */
  templates: readonly string[];
  /** One of Engram's note types (its notes are cards of type note): its id there. */
  noteTypeId?: string;
  /** Anki makes one card per cloze number. */
  cloze?: boolean;
}

export const NOTE_TYPES: readonly NoteType[] = [
  { id: 1, name: 'Basic', type: 'basic', fields: ['Front', 'Back'], templates: ['Card 1'] },
  {
    id: 2,
    name: 'Basic (and reversed card)',
    type: 'reversed',
    fields: ['Front', 'Back'],
    templates: ['Card 1', 'Card 2'],
  },
  {
    id: 6,
    name: 'Basic (optional reversed card)',
    type: 'note',
    noteTypeId: 'optional-reversed',
    fields: stockNoteType('optional-reversed').fields,
    templates: stockNoteType('optional-reversed').templates.map((template) => template.name),
  },
  // Anki lists note types by name, so it comes before Cloze; the older ids stay as tools may have stored them.
  { id: 4, name: 'Basic (type in the answer)', type: 'typed', fields: ['Front', 'Back'], templates: ['Card 1'] },
  { id: 3, name: 'Cloze', type: 'cloze', fields: ['Text', 'Back Extra'], templates: ['Cloze'], cloze: true },
  {
    id: 5,
    name: 'Image Occlusion',
    type: 'occlusion',
    fields: ['Occlusion', 'Back Extra'],
    templates: ['Image Occlusion'],
    cloze: true,
  },
];

/** A learner's own note type's id for the tools: a number from its UUID, the same at every call. */
const numberOf = (uuid: string) => Number.parseInt(uuid.replace(/-/g, '').slice(0, 12), 16);

/** Every note type of `ownerId`: the stock ones, then their own by name. */
export async function noteTypesOf(db: Db, ownerId: string): Promise<NoteType[]> {
  const own = await db.noteType.findMany({ where: { ownerId }, orderBy: [{ name: 'asc' }, { id: 'asc' }] });
  return [
    ...NOTE_TYPES,
    ...own.map((row) => {
      const shape = shapeOfRow(row);
      return {
        id: numberOf(row.id),
        name: row.name,
        type: 'note' as const,
        noteTypeId: row.id,
        fields: shape.fields,
        templates: shape.templates.map((template) => template.name),
        cloze: shape.kind === 'cloze',
      };
    }),
  ];
}

/** The note type called `name` (as written, else in any case); refused with AnkiConnect's words otherwise. */
export function noteTypeNamed(types: readonly NoteType[], name: unknown): NoteType {
  const text = String(name);
  const found =
    types.find((each) => each.name === text) ?? types.find((each) => each.name.toLowerCase() === text.toLowerCase());
  if (!found) throw modelNotFound(text);
  return found;
}

/** The note type a card is a note of. */
export const noteTypeOfCard = (types: readonly NoteType[], card: { type: string; noteTypeId?: string | null }) =>
  (card.type === 'note' ? types.find((each) => each.noteTypeId === card.noteTypeId) : undefined) ??
  types.find((each) => each.type === card.type && !each.noteTypeId) ??
  (types[0] as NoteType);

/** A card's fields' values in its note type's order (Markdown): a note's own, else its front and back. */
export const valuesOf = (card: { type: string; front: string; back: string; fields?: string[] | null }) =>
  card.type === 'note' ? [...(card.fields ?? [])] : [card.front, card.back];

/** The position of the field a name given in any case stands for in `noteType`, if any. */
export function fieldIndexOf(noteType: NoteType, field: string): number | undefined {
  const index = noteType.fields.findIndex((each) => each.toLowerCase() === field.toLowerCase());
  return index === -1 ? undefined : index;
}

/** Whether Anki makes one card of the type per cloze number (a cloze's deletions, an occlusion's shapes). */
const numbered = (noteType: NoteType) => noteType.cloze === true;

/** A review item's template name: Card 1 / Card 2, Cloze, Image Occlusion, or a note type's own. */
export const templateOf = (noteType: NoteType, ordinal: number) =>
  numbered(noteType) ? (noteType.templates[0] ?? 'Cloze') : (noteType.templates[ordinal] ?? 'Card 1');

/** Anki's `ord` of a review item: a cloze's (or an occlusion's) cN is ord N-1, as Anki numbers its cloze cards. */
export const ordOf = (noteType: NoteType, ordinal: number) => (numbered(noteType) ? Math.max(0, ordinal - 1) : ordinal);
