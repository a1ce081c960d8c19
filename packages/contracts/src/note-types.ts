// Note types (issue 45): a learner's kind of note, with named fields and one or more card templates. One note
// makes one review item per template whose question is not empty (a cloze type: one per deletion number), and
// editing the note changes all of them. Templates are written in Markdown with Anki's template language, so one
// card renderer shows every side (Markdown, maths, code, pictures and sound) and an imported Anki template keeps
// its meaning:
//   {{Field}}                 the field's text
//   {{#Field}}…{{/Field}}     shown when the field is not empty; {{^Field}}…{{/Field}} when it is
//   {{cloze:Field}}           the field's cloze deletions, the item's own hidden on the question, marked on the answer
//   {{type:Field}}            a box to type the field into, its text on the answer (type:nc: ignores accents,
//                             type:cloze: types the item's deletion)
//   {{hint:Field}}            the field, shown on asking
//   {{text:Field}}            the field without its markup
//   {{FrontSide}}             the question, on the answer side; {{Tags}}, {{Deck}}, {{Subdeck}}, {{Type}}, {{Card}}
// Filters Engram has no meaning for (furigana:, tts:, …) show the field as it is, as Anki does without them.
// The stock types (Basic, Basic (and reversed card), Basic (optional reversed card), Cloze, Basic (type in the
// answer), Image Occlusion) are note types like any other: the five Engram card types and one made of templates.
import { clozeNumbers, clozeSide, findDeletions, reviewItem, reviewOrdinals } from './cloze.ts';
import { CARD_SIDE_MAX_LENGTH, type CardType } from './learning.ts';
import { z } from './zod.ts';

export const NOTE_TYPE_NAME_MAX_LENGTH = 100;
export const NOTE_FIELD_NAME_MAX_LENGTH = 100;
/** The most fields and templates one note type has (Anki's shared decks rarely pass 20 fields or 10 templates). */
export const MAX_NOTE_FIELDS = 40;
export const MAX_NOTE_TEMPLATES = 20;
export const NOTE_TEMPLATE_MAX_LENGTH = 10_000;
export const NOTE_TYPE_CSS_MAX_LENGTH = 20_000;
/** The most note types of one learner. */
export const MAX_NOTE_TYPES = 200;

export type NoteKind = 'standard' | 'cloze';

export interface NoteTemplate {
  name: string;
  /** The question, and what the answer shows below it, in Markdown with template tags. */
  front: string;
  back: string;
}

export interface NoteTypeShape {
  name: string;
  kind: NoteKind;
  fields: string[];
  templates: NoteTemplate[];
}

/** What a template's tags refer to besides fields. */
const SPECIAL_FIELDS = new Set(['FrontSide', 'Tags', 'Deck', 'Subdeck', 'Type', 'Card', 'CardFlag']);

type Node =
  | { kind: 'text'; text: string }
  | { kind: 'field'; name: string; filters: string[] }
  | { kind: 'section'; name: string; inverted: boolean; children: Node[] };

export const TEMPLATE_PROBLEMS = {
  unclosedTag: 'A template has a "{{" that is never closed by "}}".',
  unclosedSection: 'A template opens a section ({{#Field}} or {{^Field}}) that it never closes with {{/Field}}.',
  strayClose: 'A template closes a section ({{/Field}}) that it never opened.',
  unknownField: 'A template names a field this note type does not have.',
  emptyFront: "A template's front shows no field: it would never make a card.",
  noClozeField: "A cloze note type's template needs a cloze field on its front, such as {{cloze:Text}}.",
} as const;
export type TemplateProblem = keyof typeof TEMPLATE_PROBLEMS;

class TemplateError extends Error {
  readonly problem: TemplateProblem;
  constructor(problem: TemplateProblem) {
    super(TEMPLATE_PROBLEMS[problem]);
    this.problem = problem;
  }
}

const parsed = new Map<string, Node[]>();

/** A template's tags as a tree; throws a TemplateError when they do not nest. Cached: few templates, many notes. */
function parseTemplate(template: string): Node[] {
  const known = parsed.get(template);
  if (known) return known;
  const root: Node[] = [];
  const stack: { name: string; children: Node[] }[] = [{ name: '', children: root }];
  let at = 0;
  while (at < template.length) {
    const open = template.indexOf('{{', at);
    const top = stack.at(-1)!;
    if (open < 0) {
      top.children.push({ kind: 'text', text: template.slice(at) });
      break;
    }
    if (open > at) top.children.push({ kind: 'text', text: template.slice(at, open) });
    const close = template.indexOf('}}', open + 2);
    if (close < 0) throw new TemplateError('unclosedTag');
    const tag = template.slice(open + 2, close).trim();
    at = close + 2;
    const mark = tag[0];
    if (mark === '#' || mark === '^') {
      const section: Node = { kind: 'section', name: tag.slice(1).trim(), inverted: mark === '^', children: [] };
      top.children.push(section);
      stack.push({ name: section.name, children: section.children });
    } else if (mark === '/') {
      if (stack.length === 1 || top.name !== tag.slice(1).trim()) throw new TemplateError('strayClose');
      stack.pop();
    } else if (mark === '!') {
      // A comment.
    } else {
      const parts = tag.split(':');
      const name = (parts.pop() ?? '').trim();
      top.children.push({ kind: 'field', name, filters: parts.map((part) => part.trim()) });
    }
  }
  if (stack.length > 1) throw new TemplateError('unclosedSection');
  if (parsed.size > 500) parsed.clear();
  parsed.set(template, root);
  return root;
}

/** Why a template cannot be used, or undefined. */
export function templateProblem(template: string): TemplateProblem | undefined {
  try {
    parseTemplate(template);
    return undefined;
  } catch (error) {
    if (error instanceof TemplateError) return error.problem;
    throw error;
  }
}

/** Whether a field counts as filled for a section or a card: any text besides spaces. */
export const isFilled = (value: string | undefined) => (value ?? '').trim() !== '';

/** Every field name a template refers to (in a replacement or a section), special ones left out. */
export function templateFields(template: string): string[] {
  const names = new Set<string>();
  const walk = (nodes: Node[]) => {
    for (const node of nodes) {
      if (node.kind === 'text') continue;
      if (!SPECIAL_FIELDS.has(node.name)) names.add(node.name);
      if (node.kind === 'section') walk(node.children);
    }
  };
  walk(parseTemplate(template));
  return [...names];
}

/** The fields the `{{cloze:…}}` replacements of a template name. */
export function clozeFieldsOf(template: string): string[] {
  const names = new Set<string>();
  const walk = (nodes: Node[]) => {
    for (const node of nodes) {
      if (node.kind === 'field' && node.filters.includes('cloze')) names.add(node.name);
      if (node.kind === 'section') walk(node.children);
    }
  };
  walk(parseTemplate(template));
  return [...names];
}

/**
 * Whether a question template makes a card from these field values: some field it shows (outside sections whose
 * condition fails) is filled. Special fields and text alone never make one; this is Anki's rule.
 */
export function rendersNonEmpty(template: string, values: Record<string, string>): boolean {
  const walk = (nodes: Node[]): boolean =>
    nodes.some((node) => {
      if (node.kind === 'text') return false;
      if (node.kind === 'field') return !SPECIAL_FIELDS.has(node.name) && isFilled(values[node.name]);
      if (isFilled(values[node.name]) === node.inverted) return false;
      return walk(node.children);
    });
  return walk(parseTemplate(template));
}

/** The field values of a note, by field name. */
export const fieldValues = (fields: readonly string[], values: readonly string[]) =>
  Object.fromEntries(fields.map((name, index) => [name, values[index] ?? '']));

/**
 * The ordinals of a note's review items: the templates (0, 1, …) whose question is not empty, or for a cloze type
 * the deletion numbers (1, 2, …) of the fields its question asks with `{{cloze:…}}`.
 */
export function noteOrdinals(type: NoteTypeShape, values: readonly string[]): number[] {
  const byName = fieldValues(type.fields, values);
  if (type.kind === 'cloze') {
    const front = type.templates[0]?.front ?? '';
    const numbers = new Set(clozeFieldsOf(front).flatMap((name) => clozeNumbers(byName[name] ?? '')));
    return [...numbers].sort((a, b) => a - b);
  }
  return type.templates.flatMap((template, index) => (rendersNonEmpty(template.front, byName) ? [index] : []));
}

/** The note beyond its fields, for the special fields. */
export interface NoteContext {
  tags?: readonly string[];
  deck?: string;
}

/** How a note's items are rendered for whom. */
export interface RenderOptions {
  /**
   * For AnkiConnect's clients: a `{{type:…}}` as Anki renders it for its reviewer to put the box in, `[[type:Field]]`
   * (`[[type:nc:Field]]`, `[[type:cloze:Field]]`), on both sides.
   */
  ankiTypeMarks?: boolean;
}

/** An answer the learner types, as a `{{type:…}}` asks it. */
export interface TypedAnswer {
  expected: string;
  /** `{{type:nc:…}}`: accents do not count as differences. */
  ignoreAccents: boolean;
}

/** One review item of a note: its question and answer in Markdown, and the answer to type when it asks one. */
export interface NoteItem {
  prompt: string;
  answer: string;
  typed?: TypedAnswer;
}

/** A field's text without its Markdown marks: pictures and links by their words, emphasis and code plain. */
export const markdownText = (value: string) =>
  value
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__|[*_`~])/g, '')
    .replace(/^\s{0,3}(#{1,6}\s+|>\s?|[-+*]\s+|\d+[.)]\s+)/gm, '');

/** A hint: a fenced block the card renderer draws as a collapsed "Hint" (its fence longer than any inside it). */
export function hintBlock(label: string, value: string): string {
  if (!isFilled(value)) return '';
  const longest = Math.max(2, ...[...value.matchAll(/`{3,}/g)].map((match) => match[0].length));
  const fence = '`'.repeat(longest + 1);
  return `\n\n${fence}hint ${label.replace(/[`\n]/g, '')}\n${value}\n${fence}\n\n`;
}

interface RenderContext {
  values: Record<string, string>;
  side: 'question' | 'answer';
  ordinal: number;
  note: NoteContext;
  typeName: string;
  templateName: string;
  frontSide: string;
  typed?: TypedAnswer;
  options: RenderOptions;
}

function special(name: string, context: RenderContext): string | undefined {
  switch (name) {
    case 'FrontSide':
      return context.side === 'answer' ? context.frontSide : '';
    case 'Tags':
      return (context.note.tags ?? []).join(' ');
    case 'Deck':
      return context.note.deck ?? '';
    case 'Subdeck':
      return (context.note.deck ?? '').split('::').at(-1) ?? '';
    case 'Type':
      return context.typeName;
    case 'Card':
      return context.templateName;
    case 'CardFlag':
      return '';
    default:
      return undefined;
  }
}

/** The answers of deletion `ordinal` in a cloze text, as `{{type:cloze:…}}` asks them typed. */
const clozeAnswers = (value: string, ordinal: number) =>
  findDeletions(value)
    .filter((deletion) => deletion.ordinal === ordinal)
    .map((deletion) => deletion.answer)
    .join(', ');

function replacement(node: Extract<Node, { kind: 'field' }>, context: RenderContext): string {
  const specialValue = special(node.name, context);
  let value = specialValue ?? context.values[node.name] ?? '';
  const filters = [...node.filters];
  if (filters[0] === 'type') {
    const cloze = filters.includes('cloze');
    const expected = cloze ? clozeAnswers(value, context.ordinal) : markdownText(value).trim();
    context.typed ??= { expected, ignoreAccents: filters.includes('nc') };
    if (context.options.ankiTypeMarks) return `[[${[...filters, node.name].join(':')}]]`;
    // The box, and the comparison with what was typed, are the practice screen's wherever the template puts them;
    // the answer shows what was to be typed, as a typed card's back does.
    return context.side === 'answer' ? expected : '';
  }
  // Filters apply from the one nearest the field outwards, as Anki applies them.
  for (const filter of filters.reverse()) {
    if (filter === 'text') value = markdownText(value);
    else if (filter === 'cloze') value = clozeSide(value, context.ordinal, context.side);
    else if (filter === 'hint') value = hintBlock(node.name, value);
  }
  return value;
}

function renderNodes(nodes: Node[], context: RenderContext): string {
  let out = '';
  for (const node of nodes) {
    if (node.kind === 'text') out += node.text;
    else if (node.kind === 'field') out += replacement(node, context);
    else {
      const value = special(node.name, context) ?? context.values[node.name];
      if (isFilled(value) !== node.inverted) out += renderNodes(node.children, context);
    }
  }
  return out;
}

/** Blank lines and spaces a template's sections leave behind, gathered. */
const tidy = (markdown: string) => markdown.replace(/\n{3,}/g, '\n\n').trim();

/** One review item of a note: template `ordinal` (a cloze type: its first template, asking deletion `ordinal`). */
export function noteItem(
  type: NoteTypeShape,
  ordinal: number,
  values: readonly string[],
  note: NoteContext = {},
  options: RenderOptions = {},
): NoteItem {
  const template = type.kind === 'cloze' ? type.templates[0] : type.templates[ordinal];
  if (!template) return { prompt: '', answer: '' };
  const context: RenderContext = {
    values: fieldValues(type.fields, values),
    side: 'question',
    ordinal,
    note,
    typeName: type.name,
    templateName: template.name,
    frontSide: '',
    options,
  };
  const prompt = tidy(renderNodes(parseTemplate(template.front), context));
  const answer = tidy(renderNodes(parseTemplate(template.back), { ...context, side: 'answer', frontSide: prompt }));
  return { prompt, answer, ...(context.typed && { typed: context.typed }) };
}

/** Why a note type cannot be saved, or undefined: its templates must nest, name its fields, and make cards. */
export function noteTypeProblem(type: NoteTypeShape): TemplateProblem | undefined {
  const fields = new Set(type.fields);
  for (const template of type.templates) {
    for (const side of [template.front, template.back]) {
      const problem = templateProblem(side);
      if (problem) return problem;
      if (templateFields(side).some((name) => !fields.has(name))) return 'unknownField';
    }
    if (type.kind === 'standard' && !templateFields(template.front).length) return 'emptyFront';
  }
  if (type.kind === 'cloze' && clozeFieldsOf(type.templates[0]?.front ?? '').length === 0) return 'noClozeField';
  return undefined;
}

/** The text a note's card is searched, listed and checked for duplicates by: its first field, then the others. */
export function noteSides(values: readonly string[]): { front: string; back: string } {
  const [first = '', ...rest] = values;
  return { front: first, back: rest.filter(isFilled).join('\n\n') };
}

// --- Input shapes ---------------------------------------------------------------------------------------------

const FORBIDDEN_IN_FIELD_NAME = /[:{}"]/;

const fieldName = z
  .string()
  .trim()
  .min(1, 'A field needs a name.')
  .max(NOTE_FIELD_NAME_MAX_LENGTH, `A field's name must be at most ${NOTE_FIELD_NAME_MAX_LENGTH} characters.`)
  .refine((name) => !FORBIDDEN_IN_FIELD_NAME.test(name) && !/^[#^/!]/.test(name), {
    message: 'A field\'s name cannot hold : { } or " nor start with # ^ / or !.',
  })
  .refine((name) => !SPECIAL_FIELDS.has(name), { message: 'That field name is kept for the template language.' });

const templateText = z
  .string()
  .max(NOTE_TEMPLATE_MAX_LENGTH, `A template must be at most ${NOTE_TEMPLATE_MAX_LENGTH} characters.`);

export const noteTemplate = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'A card template needs a name.')
    .max(NOTE_TYPE_NAME_MAX_LENGTH, `A card template's name must be at most ${NOTE_TYPE_NAME_MAX_LENGTH} characters.`),
  front: templateText,
  back: templateText,
});

export const noteTypeShape = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, 'Name is required.')
      .max(NOTE_TYPE_NAME_MAX_LENGTH, `Name must be at most ${NOTE_TYPE_NAME_MAX_LENGTH} characters.`),
    kind: z.enum(['standard', 'cloze'], 'Kind must be standard or cloze.').default('standard'),
    fields: z
      .array(fieldName)
      .min(1, 'A note type needs at least one field.')
      .max(MAX_NOTE_FIELDS, `A note type has at most ${MAX_NOTE_FIELDS} fields.`),
    templates: z
      .array(noteTemplate)
      .min(1, 'A note type needs at least one card template.')
      .max(MAX_NOTE_TEMPLATES, `A note type has at most ${MAX_NOTE_TEMPLATES} card templates.`),
    css: z
      .string()
      .max(NOTE_TYPE_CSS_MAX_LENGTH, `The styling must be at most ${NOTE_TYPE_CSS_MAX_LENGTH} characters.`)
      .default(''),
  })
  .refine((type) => new Set(type.fields.map((name) => name.toLowerCase())).size === type.fields.length, {
    message: 'Two fields have the same name.',
    path: ['fields'],
  })
  .refine((type) => type.kind === 'standard' || type.templates.length === 1, {
    message: 'A cloze note type has one card template.',
    path: ['templates'],
  })
  .superRefine((type, context) => {
    const problem = noteTypeProblem(type);
    if (problem) context.addIssue({ code: 'custom', message: TEMPLATE_PROBLEMS[problem], path: ['templates'] });
  });
export type NoteTypeInput = z.infer<typeof noteTypeShape>;

/** A note's field values, in its type's field order. */
export const noteFields = z
  .array(
    z.string().max(CARD_SIDE_MAX_LENGTH, `A field must be at most ${CARD_SIDE_MAX_LENGTH} characters.`),
    'Fields must be a list of texts.',
  )
  .max(MAX_NOTE_FIELDS, `A note has at most ${MAX_NOTE_FIELDS} fields.`);

// --- The stock types ------------------------------------------------------------------------------------------

/** A stock note type: its id is its key, and a note of one of the first five is an Engram card of that type. */
export interface StockNoteType extends NoteTypeShape {
  id: StockNoteTypeId;
  /** The Engram card type its notes are (`note` for one made of its templates alone). */
  cardType: CardType | 'note';
}

export const STOCK_NOTE_TYPE_IDS = ['basic', 'reversed', 'optional-reversed', 'cloze', 'typed', 'occlusion'] as const;
export type StockNoteTypeId = (typeof STOCK_NOTE_TYPE_IDS)[number];

export const STOCK_NOTE_TYPES: readonly StockNoteType[] = [
  {
    id: 'basic',
    cardType: 'basic',
    name: 'Basic',
    kind: 'standard',
    fields: ['Front', 'Back'],
    templates: [{ name: 'Card 1', front: '{{Front}}', back: '{{Back}}' }],
  },
  {
    id: 'reversed',
    cardType: 'reversed',
    name: 'Basic (and reversed card)',
    kind: 'standard',
    fields: ['Front', 'Back'],
    templates: [
      { name: 'Card 1', front: '{{Front}}', back: '{{Back}}' },
      { name: 'Card 2', front: '{{Back}}', back: '{{Front}}' },
    ],
  },
  {
    id: 'optional-reversed',
    cardType: 'note',
    name: 'Basic (optional reversed card)',
    kind: 'standard',
    fields: ['Front', 'Back', 'Add Reverse'],
    templates: [
      { name: 'Card 1', front: '{{Front}}', back: '{{Back}}' },
      { name: 'Card 2', front: '{{#Add Reverse}}{{Back}}{{/Add Reverse}}', back: '{{Front}}' },
    ],
  },
  {
    id: 'cloze',
    cardType: 'cloze',
    name: 'Cloze',
    kind: 'cloze',
    fields: ['Text', 'Back Extra'],
    templates: [{ name: 'Cloze', front: '{{cloze:Text}}', back: '{{cloze:Text}}\n\n---\n\n{{Back Extra}}' }],
  },
  {
    id: 'typed',
    cardType: 'typed',
    name: 'Basic (type in the answer)',
    kind: 'standard',
    fields: ['Front', 'Back'],
    templates: [{ name: 'Card 1', front: '{{Front}}\n\n{{type:Back}}', back: '{{type:Back}}' }],
  },
  {
    id: 'occlusion',
    cardType: 'occlusion',
    name: 'Image Occlusion',
    kind: 'cloze',
    fields: ['Occlusion', 'Back Extra'],
    templates: [
      { name: 'Image Occlusion', front: '{{cloze:Occlusion}}', back: '{{cloze:Occlusion}}\n\n{{Back Extra}}' },
    ],
  },
];

/**
 * Whether `name` is a stock note type's, in any case. A learner's own types are named otherwise, so that a name says
 * which type is meant (AnkiConnect's modelName, the card form's choice, an Anki package going out).
 */
export const isStockNoteTypeName = (name: string): boolean => {
  const wanted = name.trim().toLowerCase();
  return STOCK_NOTE_TYPES.some((stock) => stock.name.toLowerCase() === wanted);
};

export const isStockNoteTypeId = (id: string): id is StockNoteTypeId =>
  (STOCK_NOTE_TYPE_IDS as readonly string[]).includes(id);

export const stockNoteType = (id: StockNoteTypeId): StockNoteType =>
  STOCK_NOTE_TYPES.find((type) => type.id === id) as StockNoteType;

/** The stock note type a card of an Engram card type is a note of. */
export const stockNoteTypeOf = (type: CardType): StockNoteType =>
  STOCK_NOTE_TYPES.find((stock) => stock.cardType === type) ?? stockNoteType('basic');

/** A note type's id as a client gives it: a stock type's key, or the id of one of the learner's own. */
export const noteTypeId = z
  .string()
  .trim()
  .refine((id) => isStockNoteTypeId(id) || z.uuid().safeParse(id).success, { message: 'Note type id is not valid.' });

export const NOTE_PROBLEMS = {
  noCard: "This note makes no card: fill a field that one of its note type's card templates asks.",
  tooManyFields: 'The note has more fields than its note type.',
  firstFieldEmpty: 'The first field is empty.',
} as const;
export type NoteProblem = keyof typeof NOTE_PROBLEMS;

/** A card's content as its review items are made from it: a note's comes with its note type and field values. */
export interface ItemSource {
  type: CardType;
  front: string;
  back: string;
  note?: { type: NoteTypeShape; fields: readonly string[] } & NoteContext;
}

/** The ordinals of a card's review items, whatever its type. */
export function cardOrdinals(card: ItemSource): number[] {
  if (card.type === 'note') return card.note ? noteOrdinals(card.note.type, card.note.fields) : [0];
  return reviewOrdinals(card.type, card.front);
}

/** One review item of a card, whatever its type: its question, its answer, and the answer to type if it asks one. */
export function cardItem(card: ItemSource, ordinal: number, options: RenderOptions = {}): NoteItem {
  if (card.type === 'note' && card.note) return noteItem(card.note.type, ordinal, card.note.fields, card.note, options);
  if (card.type === 'note') return { prompt: card.front, answer: card.back };
  return reviewItem(card.type, ordinal, card.front, card.back);
}

/**
 * The card a note of `type` (with id `id`) is: for a stock type made of an Engram card type, that type with its first
 * two fields as front and back; for any other, a `note` whose front and back are its fields (for search, the card
 * list and duplicates).
 */
export function noteAsCard(id: string, type: NoteTypeShape, values: readonly string[]) {
  const stock = isStockNoteTypeId(id) ? stockNoteType(id) : undefined;
  if (stock && stock.cardType !== 'note') {
    return { type: stock.cardType, front: values[0] ?? '', back: values[1] ?? '', noteTypeId: null, fields: null };
  }
  const fields = type.fields.map((_, index) => values[index] ?? '');
  return { type: 'note' as const, ...noteSides(fields), noteTypeId: id, fields };
}

/** Why a note cannot be stored, or undefined. */
export function noteProblem(type: NoteTypeShape, values: readonly string[]): NoteProblem | undefined {
  if (values.length > type.fields.length) return 'tooManyFields';
  if (!isFilled(values[0])) return 'firstFieldEmpty';
  if (noteOrdinals(type, values).length === 0) return 'noCard';
  return undefined;
}

// --- Procedures' inputs and refusals ----------------------------------------------------------------------------

/** noteTypes.update: the type, its new shape, and for each new field the position of the one it was (-1: new). */
export const updateNoteTypeInput = z
  .object({
    id: z.uuid('Note type id is not valid.'),
    type: noteTypeShape,
    fieldSources: z
      .array(z.number().int().min(-1, 'A field source is a field position, or -1 for a new field.'))
      .max(MAX_NOTE_FIELDS)
      .optional(),
  })
  .refine((input) => !input.fieldSources || input.fieldSources.length === input.type.fields.length, {
    message: 'Give one field source for each field.',
    path: ['fieldSources'],
  })
  .refine(
    (input) => {
      const taken = (input.fieldSources ?? []).filter((source) => source >= 0);
      return new Set(taken).size === taken.length;
    },
    { message: 'Two fields cannot come from the same field.', path: ['fieldSources'] },
  );
export type UpdateNoteTypeInput = z.infer<typeof updateNoteTypeInput>;

export const deleteNoteTypeInput = z.object({ id: z.uuid('Note type id is not valid.') });

/** Why a note type write was refused: the `reason` a client tells them apart by. */
export const NOTE_TYPE_REASONS = {
  nameTaken: 'NOTE_TYPE_NAME_TAKEN',
  tooMany: 'NOTE_TYPES_TOO_MANY',
  stock: 'NOTE_TYPE_STOCK',
  inUse: 'NOTE_TYPE_IN_USE',
  fieldSource: 'NOTE_TYPE_FIELD_SOURCE',
} as const;

/** The note types' field values after their fields change: each new field takes the value of the one it was. */
export const remapFields = (values: readonly string[], sources: readonly number[]) =>
  sources.map((source) => (source >= 0 ? (values[source] ?? '') : ''));

// --- Styling --------------------------------------------------------------------------------------------------

/** The CSS properties a note type's styling may set: the look of its text, never where things go or what loads. */
const SAFE_PROPERTIES = new Set([
  'color',
  'background-color',
  'font-family',
  'font-size',
  'font-style',
  'font-weight',
  'font-variant',
  'text-align',
  'text-decoration',
  'text-transform',
  'line-height',
  'letter-spacing',
  'word-spacing',
  'white-space',
  'direction',
  'unicode-bidi',
  'vertical-align',
  'margin',
  'margin-top',
  'margin-bottom',
  'margin-left',
  'margin-right',
  'padding',
  'padding-top',
  'padding-bottom',
  'padding-left',
  'padding-right',
  'border',
  'border-top',
  'border-bottom',
  'border-left',
  'border-right',
  'border-color',
  'border-style',
  'border-width',
  'border-radius',
]);
/** A value that could load, run or escape anything. */
const UNSAFE_VALUE = /url\s*\(|expression\s*\(|@import|javascript:|[<>{}\\]/i;
/** A selector that could reach outside the card (the page itself) or hold a rule within it. */
const UNSAFE_SELECTOR = /[{}@<>\\]|:root|\b(html|body|head)\b/i;

/**
 * A note type's styling as it may be kept: plain rules (no @-rules), each declaration a safe property with a safe
 * value, comments gone. The card renderer scopes every rule to the note type's cards (`.card` standing for a card's
 * sides), so it never reaches the rest of the page.
 */
export function safeCss(css: string): string {
  const rules: string[] = [];
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  // @-rules (media queries, imports, fonts) are left out whole, with their nested rules.
  const flat = text.replace(/@[^{;]*(;|\{(?:[^{}]|\{[^{}]*\})*\})/g, '');
  for (const match of flat.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    const selector = (match[1] ?? '').trim().replace(/\s+/g, ' ');
    if (!selector || UNSAFE_SELECTOR.test(selector)) continue;
    const declarations = (match[2] ?? '')
      .split(';')
      .map((declaration) => {
        const colon = declaration.indexOf(':');
        if (colon < 0) return undefined;
        const property = declaration.slice(0, colon).trim().toLowerCase();
        const value = declaration.slice(colon + 1).trim();
        if (!SAFE_PROPERTIES.has(property) || !value || UNSAFE_VALUE.test(value)) return undefined;
        return `${property}: ${value}`;
      })
      .filter((declaration): declaration is string => declaration !== undefined);
    if (declarations.length) rules.push(`${selector} { ${declarations.join('; ')}; }`);
  }
  return rules.join('\n');
}

/** A template with field `from` renamed `to` in each of its tags (replacements, filters' and sections'), as Anki does. */
export function renameFieldInTemplate(template: string, from: string, to: string): string {
  return template.replace(/\{\{([#^/]?)([^{}]*?)\}\}/g, (tag, mark: string, body: string) => {
    const parts = body.split(':');
    const name = parts.pop() ?? '';
    if (name.trim() !== from) return tag;
    return `{{${mark}${[...parts, name.replace(from, to)].join(':')}}}`;
  });
}

/** Anki's night mode classes, on an ancestor of the card there: Engram's dark theme here. */
const NIGHT_MODE = /\.(?:nightMode|night_mode)\b\s*/g;

/** One selector of a note type's styling within `scope`: `.card` is the card itself, anything else inside it. */
function scopedSelector(selector: string, scope: string): string {
  const dark = NIGHT_MODE.test(selector);
  NIGHT_MODE.lastIndex = 0;
  const rest = selector.replace(NIGHT_MODE, '').trim();
  const inside = /\.card\b/.test(rest) ? rest.replace(/\.card\b/g, scope) : `${scope} ${rest}`.trim();
  return dark ? `:root[data-theme="dark"] ${inside}` : inside;
}

/**
 * A note type's styling for the page: its safe rules (safeCss) each scoped to `scope` (the element a card of the
 * type is drawn in). The card's own colours (`.card { color; background-color }`, Anki's default black on white)
 * are left to the app's light and dark themes; the colours of what is inside it stay.
 */
export function scopedCss(css: string, scope: string): string {
  return safeCss(css)
    .split('\n')
    .filter(Boolean)
    .flatMap((rule) => {
      const open = rule.indexOf('{');
      const selectors = rule
        .slice(0, open)
        .split(',')
        .map((part) => part.trim());
      let body = rule.slice(open + 1, rule.lastIndexOf('}'));
      if (selectors.every((part) => part === '.card')) {
        body = body
          .split(';')
          .filter((declaration) => !/^\s*(color|background-color)\s*:/.test(declaration))
          .join(';');
      }
      if (body.replace(/[\s;]/g, '') === '') return [];
      const scoped = selectors.map((part) => scopedSelector(part, scope)).join(', ');
      return [`${scoped} {${body.trimEnd()} }`];
    })
    .join('\n');
}
