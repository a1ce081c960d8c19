// Anki's stock note types as Engram's card types: Basic, "Basic (and reversed card)" and "Basic (type in the
// answer)" with the fields Front and Back, Cloze with Text and Back Extra, Image Occlusion with Occlusion (the
// card's front: its header, picture and shapes, @engram/contracts/occlusion) and Back Extra. A note's first field is
// the card's front, its second the back.
import type { CardType } from '@engram/contracts/learning';
import { modelNotFound } from './anki-error.js';

export interface NoteType {
  /** The id AnkiConnect answers for it (modelNamesAndIds). */
  id: number;
  name: string;
  type: CardType;
  fields: readonly [string, string];
  /** Its card templates' names, one per review item ordinal (a cloze has one template for every deletion). */
  templates: readonly string[];
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
  // Anki lists note types by name, so it comes before Cloze; the older ids stay as tools may have stored them.
  { id: 4, name: 'Basic (type in the answer)', type: 'typed', fields: ['Front', 'Back'], templates: ['Card 1'] },
  { id: 3, name: 'Cloze', type: 'cloze', fields: ['Text', 'Back Extra'], templates: ['Cloze'] },
  {
    id: 5,
    name: 'Image Occlusion',
    type: 'occlusion',
    fields: ['Occlusion', 'Back Extra'],
    templates: ['Image Occlusion'],
  },
];

/** Whether Anki makes one card of the type per cloze number (a cloze's deletions, an occlusion's shapes). */
const numbered = (noteType: NoteType) => noteType.type === 'cloze' || noteType.type === 'occlusion';

/** The note type called `name` (as written, else in any case); refused with AnkiConnect's words otherwise. */
export function noteTypeNamed(name: unknown): NoteType {
  const text = String(name);
  const found =
    NOTE_TYPES.find((each) => each.name === text) ??
    NOTE_TYPES.find((each) => each.name.toLowerCase() === text.toLowerCase());
  if (!found) throw modelNotFound(text);
  return found;
}

export const noteTypeOf = (type: string): NoteType =>
  NOTE_TYPES.find((each) => each.type === type) ?? (NOTE_TYPES[0] as NoteType);

/** The side (0 front, 1 back) a field name given in any case stands for in `noteType`, if any. */
export function sideOf(noteType: NoteType, field: string): 0 | 1 | undefined {
  const index = noteType.fields.findIndex((each) => each.toLowerCase() === field.toLowerCase());
  return index === -1 ? undefined : (index as 0 | 1);
}

/** A review item's template name: Card 1 / Card 2, Cloze, or Image Occlusion. */
export const templateOf = (noteType: NoteType, ordinal: number) =>
  numbered(noteType) ? (noteType.templates[0] ?? 'Cloze') : (noteType.templates[ordinal] ?? 'Card 1');

/** Anki's `ord` of a review item: a cloze's (or an occlusion's) cN is ord N-1, as Anki numbers its cloze cards. */
export const ordOf = (noteType: NoteType, ordinal: number) => (numbered(noteType) ? Math.max(0, ordinal - 1) : ordinal);
