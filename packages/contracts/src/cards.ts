// The cards domain's input shapes and limits, shared by the web app's forms, the gateway's procedures
// and the cards service's own checks, so a limit is written once.

import {
  CARD_SIDE_MAX_LENGTH,
  CARD_TYPES,
  type CardType,
  CREATE_MANY_MAX,
  SEARCH_QUERY_MAX_LENGTH,
  tagIds,
  tagName,
  uuid,
} from './learning.ts';
import { isStockNoteTypeId, noteFields, noteSides, noteTypeId, stockNoteType } from './note-types.ts';
import { OCCLUSION_FRONT_MAX_LENGTH } from './occlusion.ts';
import { z } from './zod.ts';

export { CARD_SIDE_MAX_LENGTH };
/** The dashboard's card list. */
export const DASHBOARD_PAGE_SIZE = 10;
/** The tag list on /practice/new. */
export const TAG_PAGE_SIZE = 50;
/** The largest page any list procedure serves. */
export const MAX_PAGE_SIZE = 100;
/** Cursors are opaque to clients; anything longer is not one of ours. */
export const CURSOR_MAX_LENGTH = 512;

/** The longest front a card of `type` may have: an occlusion card writes out its shapes (a polygon's points). */
export const frontMaxLength = (type: CardType) =>
  type === 'occlusion' ? OCCLUSION_FRONT_MAX_LENGTH : CARD_SIDE_MAX_LENGTH;

/** The back of a cloze or an occlusion card is optional extra text below its answer; other cards need one. A note's
 * sides are its fields, which its note type's templates show as they say. */
export const backIsOptional = (type: CardType) => type === 'cloze' || type === 'occlusion' || type === 'note';

/** A front: its length checked for its type by frontFitsType, as the type is another field. */
const frontOf = z
  .string()
  .trim()
  .min(1, 'Front is required.')
  .max(OCCLUSION_FRONT_MAX_LENGTH, `Front must be at most ${OCCLUSION_FRONT_MAX_LENGTH} characters.`)
  .describe(
    `Markdown, at most ${CARD_SIDE_MAX_LENGTH} characters; an occlusion card's (its picture and shapes) at most ${OCCLUSION_FRONT_MAX_LENGTH}.`,
  );

const backOf = z.string().trim().max(CARD_SIDE_MAX_LENGTH, `Back must be at most ${CARD_SIDE_MAX_LENGTH} characters.`);

export const cardType = z.enum(CARD_TYPES, 'Card type must be basic, reversed, cloze, typed, occlusion or note.');

const newCardFields = {
  front: frontOf,
  back: backOf,
  type: cardType.default('basic'),
  tagIds: tagIds.default([]),
  /** A note: its note type and its fields' values, from which its type, front and back follow (asNote). */
  noteTypeId: noteTypeId.optional(),
  fields: noteFields.optional(),
};

/**
 * A card given as a note (its note type and fields) is checked as the card it makes: a stock type made of an Engram
 * card type is that card (its first fields its front and back); any other is a `note` whose front is its first
 * field. The cards service works front and back out again from the note type it holds.
 */
function asNote(input: unknown): unknown {
  if (typeof input !== 'object' || input === null) return input;
  const { noteTypeId: id, fields } = input as { noteTypeId?: unknown; fields?: unknown };
  // Without both, it is no note (noteComplete says so, or the fields' own checks do).
  if (typeof id !== 'string' || !Array.isArray(fields)) return input;
  const values = fields.map((value) => (typeof value === 'string' ? value : ''));
  const trimmed = id.trim();
  const stock = isStockNoteTypeId(trimmed) ? stockNoteType(trimmed) : undefined;
  if (stock && stock.cardType !== 'note') {
    return { ...input, type: stock.cardType, front: values[0] ?? '', back: values[1] ?? '' };
  }
  // (Its back is every other field, which the service joins: each field is held to a side's length, not their sum.)
  return { ...input, type: 'note', front: noteSides(values).front, back: '' };
}

const noteComplete: Refinement = [
  (card) => {
    const { noteTypeId: id, fields } = card as { noteTypeId?: string; fields?: string[] };
    return (id === undefined) === (fields === undefined);
  },
  { message: 'A note needs both its note type and its fields.', path: ['fields'] },
];

const noteHasType: Refinement = [
  (card) => card.type !== 'note' || (card as { noteTypeId?: string }).noteTypeId !== undefined,
  { message: 'A note needs its note type.', path: ['noteTypeId'] },
];

type Refinement = [
  (card: { type: CardType; front: string; back: string }) => boolean,
  { message: string; path: string[] },
];

const backUnlessCloze: Refinement = [
  (card) => backIsOptional(card.type) || card.back.length > 0,
  { message: 'Back is required.', path: ['back'] },
];

const frontFitsType: Refinement = [
  (card) => card.front.length <= frontMaxLength(card.type),
  { message: `Front must be at most ${CARD_SIDE_MAX_LENGTH} characters.`, path: ['front'] },
];

const newCardObject = z.object(newCardFields);

export const newCard = z.preprocess(
  asNote,
  newCardObject
    .refine(...backUnlessCloze)
    .refine(...frontFitsType)
    .refine(...noteComplete)
    .refine(...noteHasType),
);
export type NewCard = z.infer<typeof newCard>;

/** The longest idempotency key a client may choose (a UUID is 36 characters). */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 128;

/**
 * Chosen by the client once per creation it means (a UUID, typically): a retry with the same key gets the
 * first call's result instead of a duplicate. Unique per user.
 */
export const idempotencyKey = z
  .string()
  .trim()
  .min(1, 'Idempotency key is required.')
  .max(IDEMPOTENCY_KEY_MAX_LENGTH, `Idempotency key must be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters.`);

/** cards.create: the key is optional (the gateway makes one when the client sends none). */
export const createCardInput = z.preprocess(
  asNote,
  newCardObject
    .extend({ idempotencyKey: idempotencyKey.optional() })
    .refine(...backUnlessCloze)
    .refine(...frontFitsType)
    .refine(...noteComplete)
    .refine(...noteHasType),
);
export type CreateCardInput = z.infer<typeof createCardInput>;

/** CreateCard in the cards service: the key is required, so every create can be retried safely. */
export const createCardCommand = z.preprocess(
  asNote,
  newCardObject
    .extend({ idempotencyKey })
    .refine(...backUnlessCloze)
    .refine(...frontFitsType)
    .refine(...noteComplete)
    .refine(...noteHasType),
);

const cardBatch = z
  .array(newCard)
  .min(1, 'Give at least one card.')
  .max(CREATE_MANY_MAX, `At most ${CREATE_MANY_MAX} cards at once.`);

/** cards.createMany: the key is optional, as cards.create's. */
export const createManyInput = z.object({ cards: cardBatch, idempotencyKey: idempotencyKey.optional() });

/** CreateCards in the cards service: the key is required. */
export const createManyCommand = z.object({ cards: cardBatch, idempotencyKey });

export const updateCardInput = z
  .object({
    id: uuid('Card id'),
    front: frontOf.optional(),
    back: backOf.optional(),
    type: cardType.optional(),
    tagIds: tagIds.optional(),
    /** A note's new field values (and, with them, another note type). */
    noteTypeId: noteTypeId.optional(),
    fields: noteFields.optional(),
  })
  .refine((input) => Object.keys(input).some((key) => key !== 'id' && input[key as keyof typeof input] !== undefined), {
    message: 'Give at least one field to change.',
  })
  .refine((input) => input.noteTypeId === undefined || input.fields !== undefined, {
    message: 'A note needs both its note type and its fields.',
    path: ['fields'],
  });
export type UpdateCardInput = z.infer<typeof updateCardInput>;

export const archiveCardInput = z.object({ id: uuid('Card id'), archived: z.boolean() });
export const deleteCardInput = z.object({ id: uuid('Card id') });

export const pageSize = (fallback: number) =>
  z
    .number()
    .int()
    .min(1, 'Page size must be at least 1.')
    .max(MAX_PAGE_SIZE, `Page size must be at most ${MAX_PAGE_SIZE}.`)
    .default(fallback);

export const cursor = z.string().max(CURSOR_MAX_LENGTH, 'The cursor is not valid.');

export const listCardsInput = z.object({
  pageSize: pageSize(DASHBOARD_PAGE_SIZE),
  archived: z.boolean().default(false),
  cursor: cursor.nullish(),
  tagIds: tagIds.optional(),
  query: z
    .string()
    .trim()
    .max(SEARCH_QUERY_MAX_LENGTH, `Search text must be at most ${SEARCH_QUERY_MAX_LENGTH} characters.`)
    .optional(),
});
export type ListCardsInput = z.infer<typeof listCardsInput>;

export const listTagsInput = z.object({ pageSize: pageSize(TAG_PAGE_SIZE), cursor: cursor.nullish() });
export const createTagInput = z.object({ name: tagName });
export const renameTagInput = z.object({ id: uuid('Tag id'), name: tagName });
export const deleteTagInput = z.object({ id: uuid('Tag id') });
/** The dashboard's metrics; with a year, that year's reviews by day too (the history's heatmap). */
export const reviewMetricsInput = z
  .object({ year: z.number().int('Year must be a whole number.').min(1970, 'Year must be 1970 or later.').max(9999) })
  .optional();
