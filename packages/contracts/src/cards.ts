// The cards domain's input shapes and limits, shared by the web app's forms, the gateway's procedures
// and the cards service's own checks, so a limit is written once.
import { z } from 'zod';

/** The longest front or back of a card, in characters. */
export const CARD_SIDE_MAX_LENGTH = 2000;
/** Spec §9: the dashboard's card list. */
export const DASHBOARD_PAGE_SIZE = 10;
/** Spec §9: the tag list on /practice/new. */
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

export const createCardInput = z.object({ front: cardSide('Front'), back: cardSide('Back') });
export type CreateCardInput = z.infer<typeof createCardInput>;

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
});
export type ListCardsInput = z.infer<typeof listCardsInput>;
