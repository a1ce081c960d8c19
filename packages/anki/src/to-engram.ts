// One Anki note (with its cards and their review logs) as Engram cards. Stock note types keep their
// meaning: Basic → basic, Basic (type in the answer) → typed, Basic (and reversed card) and Basic (optional
// reversed card) → reversed (a note without its reverse card → basic), Cloze and every cloze-kind type →
// cloze with its deletions, Image Occlusion → occlusion with its picture and shapes; any other note type becomes an
// Engram note type of its own (engramNoteType: its fields, its templates in Markdown, its styling made safe) and the
// note a note of it, each Anki card a review item of its template; a type whose templates Engram cannot read as
// its own (a template naming a field the type lacks) → one basic card per card Anki made, rendered from its
// templates. A type is recognised by the stock kind Anki recorded, else by its structure, never by its
// (translatable) name. Tags are the note's plus its cards' deck names (`Parent::Child` verbatim). A note
// whose cards cannot fit Engram's limits (docs/product.md) is reported as skipped with the reason.
import { clozeNumbers } from '@engram/contracts/cloze';
import { type ImportProblemWords, importProblem, sidesProblem } from '@engram/contracts/import-problems';
import {
  CARD_SIDE_MAX_LENGTH,
  type CardType,
  MAX_TAGS_PER_CARD,
  TAG_NAME_MAX_LENGTH,
} from '@engram/contracts/learning';
import { type NoteTypeShape, noteOrdinals, noteSides, noteTypeProblem, safeCss } from '@engram/contracts/note-types';
import { occlusionFront } from '@engram/contracts/occlusion';
import { htmlToMarkdown, mediaUrl, templateToMarkdown } from './html-to-markdown.ts';
import { isImageOcclusion, occlusionShapes, pictureOf } from './image-occlusion.ts';
import type { AnkiReader } from './reader.ts';
import { renderTemplate } from './templates.ts';
import type { AnkiCard, AnkiNoteBundle, AnkiNoteType, AnkiRevlog } from './types.ts';

/** One review direction of an Engram card and the Anki card (with its history) it comes from. */
export interface EngramItemSource {
  /** The Engram review item's ordinal: 0 (1 for a reversed card's back), or the cloze number. */
  ordinal: number;
  card: AnkiCard;
  revlog: AnkiRevlog[];
}

export interface EngramCardDraft {
  /** The note's guid; `guid/ord` for a card rendered from template `ord` of a custom note type. Stable
   * across imports of the same collection, so a second import can update instead of duplicating. */
  guid: string;
  noteGuid: string;
  type: CardType;
  front: string;
  back: string;
  tags: string[];
  /** The tag that is the note's Anki deck (its first card's), when it is one of `tags`. */
  deck: string | undefined;
  /** Every Anki card of it was suspended. */
  archived: boolean;
  /** Media names referenced as `media:<encoded name>` in front or back (or a note's fields). */
  media: string[];
  items: EngramItemSource[];
  /** A note of a custom note type (type `note`): the Anki note type's id and its fields in Markdown, in order. */
  note?: { noteTypeId: number; fields: string[] };
}

/** An Anki note type as an Engram note type: what an import makes of a type that is none of the stock ones. */
export interface EngramNoteTypeDraft extends NoteTypeShape {
  ankiId: number;
  css: string;
  /** Files its templates show, as `media:<encoded name>` in them. */
  media: string[];
  /** The type as Anki wrote it, for an export to give it back unchanged while it is not edited. */
  anki: AnkiOriginal;
}

/** A note type as Anki wrote it (what an import keeps of it). */
export interface AnkiOriginal {
  id: number;
  /** Its name in Anki (absent from what imports before it was kept wrote). */
  name?: string;
  fields: string[];
  css: string;
  templates: { name: string; qfmt: string; afmt: string }[];
}

export interface SkippedNote {
  guid: string;
  noteId: number;
  /** Why, as a reason with its values and its English wording. */
  problem: ImportProblemWords;
}

export interface MappedNote {
  cards: EngramCardDraft[];
  skipped: SkippedNote[];
  /** What the learner should know of a note that did come in (as another kind of card than Anki's). */
  notices: SkippedNote[];
  /** Tags left off because they are longer than Engram allows or one too many. */
  droppedTags: string[];
}

export interface MappingContext {
  noteTypes: Map<number, AnkiNoteType>;
  /** The custom note types that are Engram note types, by Anki id (engramNoteTypes). */
  engramNoteTypes: Map<number, EngramNoteTypeDraft>;
  deckNames: Map<number, string>;
  /** The reader's limit on a note, which a note left out for its size is told. */
  maxNoteBytes: number;
}

export function mappingContext(reader: AnkiReader): MappingContext {
  const noteTypes = reader.noteTypes();
  return {
    noteTypes: new Map(noteTypes.map((type) => [type.id, type])),
    engramNoteTypes: engramNoteTypes(noteTypes),
    deckNames: new Map(reader.decks().map((deck) => [deck.id, deck.name])),
    maxNoteBytes: reader.maxNoteBytes,
  };
}

/** A size as the learner reads it: "4 MB", "100 KB". */
const sizeText = (bytes: number) =>
  bytes >= 1024 ** 2
    ? `${(bytes / 1024 ** 2).toLocaleString('en', { maximumFractionDigits: 1 })} MB`
    : `${Math.ceil(bytes / 1024).toLocaleString('en')} KB`;

type Shape = 'basic' | 'typed' | 'reversed' | 'cloze' | 'custom';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const squash = (template: string) => template.replace(/\s+/g, '');
/** A question template without its typed-answer box (`{{type:Back}}` asks the same as a plain back). */
const asked = (template: string) => squash(template).replace(/\{\{type:[^{}]*\}\}/g, '');

/** Whether a template has a box to type `field` into: `{{type:Back}}`, or `{{type:nc:Back}}` (accents ignored). */
const hasTypeBox = (template: string, field: string) =>
  new RegExp(`\\{\\{type:(?:nc:)?${escapeRegExp(field)}\\}\\}`).test(squash(template));

/** The fields a template shows (not those it only tests in a `{{#Section}}`), by name. */
const shownFields = (template: string) =>
  [...template.matchAll(/\{\{(?![#^/])([^{}]*)\}\}/g)].map((match) => match[1]!.split(':').at(-1)!.trim());

/** What a note type is to Engram. */
export function shapeOf(type: AnkiNoteType): Shape {
  if (type.kind === 'cloze') return 'cloze';
  const [first, second] = type.fields;
  const templates = type.templates;
  const stock = type.originalStockKind;
  // A one-card type asks its first field; with a box to type its second into, that answer is typed. A box that
  // leaves accents aside (`{{type:nc:Back}}`) makes a note type of its own, which keeps that (a typed card counts
  // accents, as Anki's stock type does).
  const basicOrTyped = () => {
    const question = templates[0]?.qfmt ?? '';
    if (!second || !hasTypeBox(question, second)) return 'basic';
    return squash(question).includes(`{{type:nc:${second}}}`) ? 'custom' : 'typed';
  };
  if ((stock === 'basic' || stock === 'basicTyping') && templates.length === 1 && type.fields.length >= 2)
    return basicOrTyped();
  if ((stock === 'basicAndReversed' || stock === 'basicOptionalReversed') && templates.length === 2) return 'reversed';
  if (type.fields.length < 2 || !first || !second) return 'custom';
  // A type made of its first two fields (others only tested, as Basic (optional reversed card)'s "Add Reverse").
  const special = new Set(['FrontSide', 'Tags', 'Deck', 'Subdeck', 'Type', 'Card']);
  const shown = templates.flatMap((t) => [...shownFields(t.qfmt), ...shownFields(t.afmt)]);
  if (shown.some((name) => name !== first && name !== second && !special.has(name))) return 'custom';
  const asks = (index: number, field: string) => asked(templates[index]?.qfmt ?? '') === `{{${field}}}`;
  const asksIfFilled = (index: number, field: string) =>
    asks(index, field) ||
    new RegExp(`^\\{\\{#([^{}]+)\\}\\}\\{\\{${escapeRegExp(field)}\\}\\}\\{\\{/\\1\\}\\}$`).test(
      asked(templates[index]?.qfmt ?? ''),
    );
  const answers = (index: number, field: string) => {
    const answer = squash(templates[index]?.afmt ?? '');
    return answer.includes(`{{${field}}}`) || hasTypeBox(answer, field);
  };
  if (templates.length === 1 && asks(0, first) && answers(0, second)) return basicOrTyped();
  if (templates.length === 2 && asks(0, first) && answers(0, second) && asksIfFilled(1, second) && answers(1, first)) {
    return 'reversed';
  }
  return 'custom';
}

/** The field names a template refers to, in order. */
const referencedFields = (template: string, fields: string[]) =>
  fields.filter((name) => new RegExp(`\\{\\{[^{}]*?:?${escapeRegExp(name)}\\}\\}`).test(template));

/**
 * An answer template's text after the question it repeats, which Engram shows anyway: after its
 * `<hr id=answer>` divider, else after an opening `{{FrontSide}}`.
 */
const withoutFrontSide = (afmt: string) => {
  const divider = /<hr id=["']?answer["']?\s*\/?>/i.exec(afmt);
  if (divider) return afmt.slice(divider.index + divider[0].length).replace(/^(\s|<br\s*\/?>)*/i, '');
  return afmt.replace(/^\s*\{\{FrontSide\}\}(\s|<br\s*\/?>)*/i, '');
};

function tagsOf(bundle: AnkiNoteBundle, context: MappingContext) {
  const all = [...bundle.note.tags];
  for (const { card } of bundle.cards) {
    const deck = context.deckNames.get(card.deckId);
    if (deck && deck !== 'Default') all.push(deck);
  }
  const unique = [...new Map(all.map((tag) => [tag.toLowerCase(), tag])).values()];
  const fitting = unique.filter((tag) => tag.length <= TAG_NAME_MAX_LENGTH);
  const kept = fitting.slice(0, MAX_TAGS_PER_CARD);
  const first = context.deckNames.get(bundle.cards[0]?.card.deckId ?? 0);
  const deck = kept.find((tag) => tag.toLowerCase() === first?.toLowerCase());
  return { tags: kept, deck, dropped: unique.filter((tag) => !kept.includes(tag)) };
}

/** Maps one note; cards that cannot fit are in `skipped` with the reason, never truncated. */
export function toEngram(bundle: AnkiNoteBundle, context: MappingContext): MappedNote {
  const { note } = bundle;
  if (note.tooLarge) {
    const problem = importProblem('noteTooLarge', { limit: sizeText(context.maxNoteBytes) });
    return { cards: [], skipped: [{ guid: note.guid, noteId: note.id, problem }], notices: [], droppedTags: [] };
  }
  const type = context.noteTypes.get(note.noteTypeId);
  const { tags, deck, dropped } = tagsOf(bundle, context);
  const archived = bundle.cards.length > 0 && bundle.cards.every(({ card }) => card.queue === -1);
  const result: MappedNote = { cards: [], skipped: [], notices: [], droppedTags: dropped };
  if (!type) {
    result.skipped.push({ guid: note.guid, noteId: note.id, problem: importProblem('noteTypeMissing') });
    return result;
  }
  const field = (index: number) => note.fields[index] ?? '';
  const fieldMap = Object.fromEntries(type.fields.map((name, index) => [name, field(index)]));
  /** Adds the card (its sides in HTML, or in Markdown already), or the reason it cannot be one; answers whether it
   * was added. */
  const draft = (
    guid: string,
    cardType: CardType,
    frontHtml: string | Converted,
    backHtml: string | Converted,
    items: EngramItemSource[],
  ) => {
    const front = typeof frontHtml === 'string' ? htmlToMarkdown(frontHtml) : frontHtml;
    const back = typeof backHtml === 'string' ? htmlToMarkdown(backHtml) : backHtml;
    const problem = sidesProblem(cardType, front.markdown, back.markdown);
    if (problem) {
      result.skipped.push({ guid, noteId: note.id, problem });
      return false;
    }
    const media = [...new Set([...front.media, ...back.media])];
    result.cards.push({
      guid,
      noteGuid: note.guid,
      type: cardType,
      front: front.markdown,
      back: back.markdown,
      tags,
      deck,
      archived,
      media,
      items,
    });
    return true;
  };
  const source = ({ card, revlog }: AnkiNoteBundle['cards'][number], ordinal: number) => ({ ordinal, card, revlog });
  const shape = shapeOf(type);

  if (isImageOcclusion(type)) {
    mapOcclusions(bundle, fieldMap, type, draft);
  } else if (shape === 'basic' || shape === 'typed' || shape === 'reversed') {
    const hasReverse = bundle.cards.some(({ card }) => card.ordinal === 1);
    const cardType = shape === 'reversed' ? (hasReverse ? 'reversed' : 'basic') : shape;
    const items = bundle.cards
      .filter(({ card }) => card.ordinal === 0 || (cardType === 'reversed' && card.ordinal === 1))
      .map((c) => source(c, c.card.ordinal));
    draft(note.guid, cardType, field(0), field(1), items);
  } else if (shape === 'cloze') {
    const template = type.templates[0];
    const clozeField = /\{\{[^{}]*cloze:([^{}]+)\}\}/.exec(template?.qfmt ?? '')?.[1]?.trim() ?? type.fields[0] ?? '';
    const asked = referencedFields(template?.qfmt ?? '', type.fields);
    const extra = referencedFields(template?.afmt ?? '', type.fields).filter((name) => !asked.includes(name));
    const front = fieldMap[clozeField] ?? '';
    const back = extra
      .map((name) => fieldMap[name] ?? '')
      .filter((html) => html.trim())
      .join('<br><br>');
    const numbers = new Set(clozeNumbers(htmlToMarkdown(front).markdown));
    if (numbers.size === 0) {
      // Anki keeps and shows a cloze note whose text has no deletion yet (its first card shows the text): a basic
      // card asking the text, answered by its extra fields (or by the text again, as Anki's answer shows it).
      const first = bundle.cards.filter(({ card }) => card.ordinal === 0).map((c) => source(c, 0));
      if (draft(note.guid, 'basic', front, back.trim() ? back : front, first)) {
        result.notices.push({ guid: note.guid, noteId: note.id, problem: importProblem('clozeAsBasic') });
      }
    } else {
      const items = bundle.cards
        .filter(({ card }) => numbers.has(card.ordinal + 1))
        .map((c) => source(c, c.card.ordinal + 1));
      draft(note.guid, 'cloze', front, back, items);
    }
  } else if (context.engramNoteTypes.has(type.id)) {
    mapNote(bundle, context.engramNoteTypes.get(type.id)!, tags, deck, archived, result);
  } else {
    const ordinals = bundle.cards.length
      ? [...new Set(bundle.cards.map(({ card }) => card.ordinal))]
      : type.templates.map((template) => template.ord);
    for (const ord of ordinals) {
      const template = type.templates.find((t) => t.ord === ord);
      if (!template) continue;
      const cardDeck = context.deckNames.get(bundle.cards.find(({ card }) => card.ordinal === ord)?.card.deckId ?? 0);
      const base = {
        fields: fieldMap,
        tags: note.tags,
        deck: cardDeck ?? '',
        noteType: type.name,
        card: template.name,
      };
      const front = renderTemplate(template.qfmt, { ...base, side: 'question' });
      const answerOnly = renderTemplate(withoutFrontSide(template.afmt), { ...base, frontSide: front, side: 'answer' });
      // An answer that adds nothing to the question (its extra field empty) shows the question, as Anki's does.
      const back = htmlToMarkdown(answerOnly).markdown.trim() ? answerOnly : front;
      const items = bundle.cards.filter(({ card }) => card.ordinal === ord).map((c) => source(c, 0));
      draft(`${note.guid}/${ord}`, 'basic', front, back, items);
    }
  }
  return result;
}

/** The note types of a collection that become Engram note types: those of no stock shape whose templates work. */
export function engramNoteTypes(types: AnkiNoteType[]): Map<number, EngramNoteTypeDraft> {
  const found = new Map<number, EngramNoteTypeDraft>();
  for (const type of types) {
    if (type.kind !== 'standard' || isImageOcclusion(type) || shapeOf(type) !== 'custom') continue;
    const draft = engramNoteType(type);
    if (draft) found.set(type.id, draft);
  }
  return found;
}

/**
 * A custom Anki note type as an Engram note type: its fields, its templates in Markdown (HTML sanitised, scripts
 * gone, the answer without the question it repeats), its styling made safe; undefined when its templates do not
 * make an Engram note type (a front that shows no field).
 */
export function engramNoteType(type: AnkiNoteType): EngramNoteTypeDraft | undefined {
  const media = new Set<string>();
  const markdown = (html: string) => {
    const converted = templateToMarkdown(html);
    for (const name of converted.media) media.add(name);
    return converted.markdown;
  };
  const shape: NoteTypeShape = {
    name: type.name,
    kind: 'standard',
    fields: type.fields,
    templates: [...type.templates]
      .sort((a, b) => a.ord - b.ord)
      .map((template) => ({
        name: template.name,
        front: markdown(template.qfmt),
        back: markdown(withoutFrontSide(template.afmt)),
      })),
  };
  if (noteTypeProblem(shape)) return undefined;
  const css = type.css ?? '';
  return {
    ...shape,
    ankiId: type.id,
    css: safeCss(css),
    media: [...media],
    anki: {
      id: type.id,
      name: type.name,
      fields: type.fields,
      css,
      templates: [...type.templates]
        .sort((a, b) => a.ord - b.ord)
        .map(({ name, qfmt, afmt }) => ({ name, qfmt, afmt })),
    },
  };
}

/** A note of a custom note type: one Engram note, each of its Anki cards the review item of its template. */
function mapNote(
  bundle: AnkiNoteBundle,
  type: EngramNoteTypeDraft,
  tags: string[],
  deck: string | undefined,
  archived: boolean,
  result: MappedNote,
) {
  const { note } = bundle;
  const converted = type.fields.map((_, index) => htmlToMarkdown(note.fields[index] ?? ''));
  const fields = converted.map((field) => field.markdown);
  const sides = noteSides(fields);
  const max = String(CARD_SIDE_MAX_LENGTH);
  const problem =
    sidesProblem('note', sides.front, '') ??
    (fields.some((field) => field.length > CARD_SIDE_MAX_LENGTH) ? importProblem('backTooLong', { max }) : undefined) ??
    (noteOrdinals(type, fields).length === 0 ? importProblem('noteNoCard') : undefined);
  if (problem) {
    result.skipped.push({ guid: note.guid, noteId: note.id, problem });
    return;
  }
  result.cards.push({
    guid: note.guid,
    noteGuid: note.guid,
    type: 'note',
    front: sides.front,
    back: sides.back,
    tags,
    deck,
    archived,
    media: [...new Set(converted.flatMap((field) => field.media))],
    items: bundle.cards.map(({ card, revlog }) => ({ ordinal: card.ordinal, card, revlog })),
    note: { noteTypeId: type.ankiId, fields },
  });
}

/** A side already in Markdown, with the package's files it shows. */
interface Converted {
  markdown: string;
  media: string[];
}

/** The entities an Anki field's text may hold, as the characters they stand for. */
const fieldText = (html: string) =>
  html
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

/**
 * An Image Occlusion note: one Engram occlusion card asking each of Anki's cards (each with its history, by its
 * card number), its picture the note's Image, its shapes the Occlusion field's as Anki wrote them, the header
 * above, the Back Extra (and Comments) below the answer.
 */
function mapOcclusions(
  bundle: AnkiNoteBundle,
  fields: Record<string, string>,
  type: AnkiNoteType,
  draft: (guid: string, cardType: CardType, front: Converted, back: string, items: EngramItemSource[]) => boolean,
) {
  const [occlusion = '', image = '', header = '', ...extra] = type.fields;
  const shapes = occlusionShapes(fieldText(fields[occlusion] ?? ''));
  const picture = pictureOf(fields[image] ?? '');
  const headerMarkdown = htmlToMarkdown(fields[header] ?? '');
  const front = picture
    ? occlusionFront({ header: headerMarkdown.markdown, picture: { alt: '', src: mediaUrl(picture) }, shapes })
    : headerMarkdown.markdown;
  const extraHtml = extra
    .map((name) => fields[name] ?? '')
    .filter((html) => html.trim())
    .join('<br><br>');
  // A card whose shapes the note no longer has (Anki keeps it until "Empty Cards") asks nothing here.
  const asked = new Set(shapes.map((shape) => shape.ordinal));
  const items = bundle.cards
    .filter((entry) => asked.has(entry.card.ordinal + 1))
    .map((entry) => ({ ordinal: entry.card.ordinal + 1, ...entry }));
  draft(
    bundle.note.guid,
    'occlusion',
    { markdown: front, media: [...new Set([...(picture ? [picture] : []), ...headerMarkdown.media])] },
    extraHtml,
    items,
  );
}
