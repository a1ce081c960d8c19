// The cards domain's input shapes and limits, shared by the web app's forms, the gateway's procedures
// and the cards service's own checks, so a limit is written once.

import { CARD_TYPES, CREATE_MANY_MAX, SEARCH_QUERY_MAX_LENGTH, tagIds, tagName, uuid } from './learning.ts';
import { z } from './zod.ts';

/** The longest front or back of a card, in characters. */
export const CARD_SIDE_MAX_LENGTH = 2000;
/** The dashboard's card list. */
export const DASHBOARD_PAGE_SIZE = 10;
/** The tag list on /practice/new. */
export const TAG_PAGE_SIZE = 50;
/** The largest page any list procedure serves. */
export const MAX_PAGE_SIZE = 100;
/** Cursors are opaque to clients; anything longer is not one of ours. */
export const CURSOR_MAX_LENGTH = 512;

/** A card side: trimmed, required, at most CARD_SIDE_MAX_LENGTH characters. */
export const cardSide = (label: string) =>
  z
    .string()
    .trim()
    .min(1, `${label} is required.`)
    .max(CARD_SIDE_MAX_LENGTH, `${label} must be at most ${CARD_SIDE_MAX_LENGTH} characters.`);

/** The back of a cloze card is optional extra text; other cards need one. */
const backOf = z.string().trim().max(CARD_SIDE_MAX_LENGTH, `Back must be at most ${CARD_SIDE_MAX_LENGTH} characters.`);

export const cardType = z.enum(CARD_TYPES, 'Card type must be basic, reversed, cloze or typed.');

const newCardFields = {
  front: cardSide('Front'),
  back: backOf,
  type: cardType.default('basic'),
  tagIds: tagIds.default([]),
};

const backUnlessCloze: [(card: { type: string; back: string }) => boolean, { message: string; path: string[] }] = [
  (card) => card.type === 'cloze' || card.back.length > 0,
  { message: 'Back is required.', path: ['back'] },
];

export const newCard = z.object(newCardFields).refine(...backUnlessCloze);
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
export const createCardInput = z
  .object({ ...newCardFields, idempotencyKey: idempotencyKey.optional() })
  .refine(...backUnlessCloze);
export type CreateCardInput = z.infer<typeof createCardInput>;

/** CreateCard in the cards service: the key is required, so every create can be retried safely. */
export const createCardCommand = z.object({ ...newCardFields, idempotencyKey }).refine(...backUnlessCloze);

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
    front: cardSide('Front').optional(),
    back: backOf.optional(),
    type: cardType.optional(),
    tagIds: tagIds.optional(),
  })
  .refine((input) => Object.keys(input).some((key) => key !== 'id' && input[key as keyof typeof input] !== undefined), {
    message: 'Give at least one field to change.',
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
