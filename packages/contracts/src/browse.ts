// The Browse screen's inputs and limits (docs/product.md#browse), shared by the web app, the gateway's procedures
// and the cards service: a search in Anki's syntax (card-search.ts), its sort, bulk edits of a selection or of
// every card a search finds, saved searches, duplicates.
import { CARD_SEARCH_MAX_LENGTH, CardSearchError, parseCardSearch } from './card-search.ts';
import { CURSOR_MAX_LENGTH, MAX_PAGE_SIZE } from './cards.ts';
import { tagIds, uuid } from './learning.ts';
import { z } from './zod.ts';

export const BROWSE_SORTS = ['added', 'due', 'interval', 'front', 'reps', 'lapses'] as const;
export type BrowseSort = (typeof BROWSE_SORTS)[number];
/** A page of the Browse table. */
export const BROWSE_PAGE_SIZE = 50;
/** The most cards one bulk edit changes. */
export const BULK_EDIT_MAX_CARDS = 20_000;
export const BULK_EDIT_ACTIONS = [
  'add_tags',
  'remove_tags',
  'archive',
  'unarchive',
  'delete',
  'set_due',
  'forget',
  'set_preset',
] as const;
export type BulkEditAction = (typeof BULK_EDIT_ACTIONS)[number];
/** How long a bulk edit may be undone. */
export const BULK_UNDO_MINUTES = 30;
/** The furthest a due date may be set, in days from today. */
export const SET_DUE_MAX_DAYS = 36_500;
export const SAVED_SEARCHES_MAX = 50;
export const SAVED_SEARCH_NAME_MAX_LENGTH = 40;
export const DUPLICATE_GROUPS_MAX = 100;

/** A search in Anki's syntax: refused with the parser's message when malformed. */
export const cardSearchQuery = z
  .string()
  .max(CARD_SEARCH_MAX_LENGTH, `A search is at most ${CARD_SEARCH_MAX_LENGTH} characters.`)
  .superRefine((query, ctx) => {
    try {
      parseCardSearch(query);
    } catch (error) {
      if (!(error instanceof CardSearchError)) throw error;
      ctx.addIssue({ code: 'custom', message: error.message, params: { start: error.start, end: error.end } });
    }
  });

export const browseInput = z.object({
  query: cardSearchQuery.default(''),
  sort: z.enum(BROWSE_SORTS, `Sort by ${BROWSE_SORTS.join(', ')}.`).default('added'),
  ascending: z.boolean().default(false),
  pageSize: z
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE, `Page size must be at most ${MAX_PAGE_SIZE}.`)
    .default(BROWSE_PAGE_SIZE),
  cursor: z.string().max(CURSOR_MAX_LENGTH, 'The cursor is not valid.').optional(),
});
export type BrowseInput = z.input<typeof browseInput>;

export const countInput = z.object({ query: cardSearchQuery.default('') });

export const bulkEditInput = z
  .object({
    action: z.enum(BULK_EDIT_ACTIONS, 'This change is not one Browse makes.'),
    /** The cards; or, left out, every card `query` finds. */
    cardIds: z
      .array(uuid('A card id'))
      .min(1, 'Choose at least one card.')
      .max(BULK_EDIT_MAX_CARDS, `At most ${BULK_EDIT_MAX_CARDS.toLocaleString('en')} cards at once.`)
      .optional(),
    query: cardSearchQuery.optional(),
    tagIds: tagIds.optional(),
    dueFromDays: z.number().int().min(0, 'A due date is today or later.').max(SET_DUE_MAX_DAYS).optional(),
    dueToDays: z.number().int().min(0, 'A due date is today or later.').max(SET_DUE_MAX_DAYS).optional(),
    presetId: uuid('The preset').optional(),
  })
  .refine((input) => input.cardIds !== undefined || input.query !== undefined, {
    message: 'Choose cards, or a search.',
    path: ['cardIds'],
  })
  .refine((input) => !['add_tags', 'remove_tags'].includes(input.action) || (input.tagIds?.length ?? 0) > 0, {
    message: 'Choose at least one tag.',
    path: ['tagIds'],
  })
  .refine((input) => input.action !== 'set_due' || input.dueFromDays !== undefined, {
    message: 'Say when the cards are due.',
    path: ['dueFromDays'],
  })
  .refine((input) => (input.dueToDays ?? input.dueFromDays ?? 0) >= (input.dueFromDays ?? 0), {
    message: 'The range ends on or after its first day.',
    path: ['dueToDays'],
  })
  .refine((input) => input.action !== 'set_preset' || input.presetId !== undefined, {
    message: 'Choose a preset.',
    path: ['presetId'],
  });
export type BulkEditInput = z.input<typeof bulkEditInput>;

export const undoBulkEditInput = z.object({ undoId: uuid('The change') });

export const saveSearchInput = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Give the search a name.')
    .max(SAVED_SEARCH_NAME_MAX_LENGTH, `A name is at most ${SAVED_SEARCH_NAME_MAX_LENGTH} characters.`),
  query: cardSearchQuery,
});

export const deleteSavedSearchInput = z.object({ id: uuid('The saved search') });

export const duplicatesInput = z
  .object({ limit: z.number().int().min(1).max(DUPLICATE_GROUPS_MAX).default(50) })
  .default({ limit: 50 });
