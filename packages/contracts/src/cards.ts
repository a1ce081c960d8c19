// The cards domain's input shapes and limits, shared by the web app's forms, the gateway's procedures
// and the cards service's own checks, so a limit is written once.

import {
  CARD_TYPES,
  type CardType,
  CREATE_MANY_MAX,
  SEARCH_QUERY_MAX_LENGTH,
  tagIds,
  tagName,
  uuid,
} from './learning.ts';
import { OCCLUSION_FRONT_MAX_LENGTH } from './occlusion.ts';
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

/** The longest front a card of `type` may have: an occlusion card writes out its shapes (a polygon's points). */
export const frontMaxLength = (type: CardType) =>
  type === 'occlusion' ? OCCLUSION_FRONT_MAX_LENGTH : CARD_SIDE_MAX_LENGTH;

/** The back of a cloze or an occlusion card is optional extra text below its answer; other cards need one. */
export const backIsOptional = (type: CardType) => type === 'cloze' || type === 'occlusion';

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

export const cardType = z.enum(CARD_TYPES, 'Card type must be basic, reversed, cloze, typed or occlusion.');

const newCardFields = {
  front: frontOf,
  back: backOf,
  type: cardType.default('basic'),
  tagIds: tagIds.default([]),
};

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

export const newCard = z
  .object(newCardFields)
  .refine(...backUnlessCloze)
  .refine(...frontFitsType);
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
  .refine(...backUnlessCloze)
  .refine(...frontFitsType);
export type CreateCardInput = z.infer<typeof createCardInput>;

/** CreateCard in the cards service: the key is required, so every create can be retried safely. */
export const createCardCommand = z
  .object({ ...newCardFields, idempotencyKey })
  .refine(...backUnlessCloze)
  .refine(...frontFitsType);

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
