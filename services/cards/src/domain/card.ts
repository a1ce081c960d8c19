// What makes a card valid, independent of storage.
import { z } from 'zod';

export const CARD_SIDE_MAX = 2000;
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

const side = (name: string) =>
  z
    .string()
    .trim()
    .min(1, `${name} is required.`)
    .max(CARD_SIDE_MAX, `${name} must be at most ${CARD_SIDE_MAX} characters.`);

export const newCardSchema = z.object({ front: side('Front'), back: side('Back') });

export const listCardsSchema = z.object({
  pageSize: z
    .number()
    .int()
    .min(0)
    .max(MAX_PAGE_SIZE, `Page size must be at most ${MAX_PAGE_SIZE}.`)
    .transform((n) => n || DEFAULT_PAGE_SIZE),
  archived: z.boolean(),
  cursor: z.string().max(512),
});
