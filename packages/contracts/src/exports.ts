// Exports, as the gateway takes them and the web app shows them (the API names are the public contract, issue
// "bring your collection"): the learner's cards as CSV or an Anki package (all, or those with chosen tags), or
// everything Engram holds about them as JSON.
import { MAX_ACTIVE_EXPORTS } from './collection-limits.ts';
import { z } from './zod.ts';

export const EXPORT_FORMATS = ['apkg', 'csv', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_STATUSES = ['queued', 'running', 'done', 'failed', 'expired'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

/** The services whose parts a full export gathers besides cards', by the name they have in the file. */
export const EXPORT_PARTS = ['identity', 'organizations', 'billing', 'ai'] as const;
export type ExportPart = (typeof EXPORT_PARTS)[number];

/** What a part holds, in the words of the message that says it could not be gathered. */
export const EXPORT_PART_NAMES: Record<ExportPart, string> = {
  identity: 'your account and sign-ins',
  organizations: 'your organizations and shared decks',
  billing: 'your subscription',
  ai: 'your card generation usage',
};

export const EXPORT_REASONS = {
  /** A full export could not gather a service's part: nothing was queued, since a file without it would mislead. */
  partUnavailable: 'EXPORT_PART_UNAVAILABLE',
  /** The learner has MAX_ACTIVE_EXPORTS (collection-limits) exports queued or running already. */
  tooManyActive: 'EXPORTS_BUSY',
} as const;

export const tooManyExportsMessage = () =>
  `You already have ${MAX_ACTIVE_EXPORTS} exports waiting or being made. Wait until one of them is ready, then start this one.`;

/** The learner's message when a full export could not gather one of its parts. */
export const exportPartUnavailableMessage = (part: ExportPart) =>
  `Your data export could not gather ${EXPORT_PART_NAMES[part]} right now, so nothing was exported. Please try again in a moment.`;

/** How long an export's file stays in the store, and how long one download link works. */
export const EXPORT_KEEP_HOURS = 24;
export const EXPORT_LINK_MINUTES = 15;
/** The most tags an export may be limited to. */
export const MAX_EXPORT_TAGS = 100;
/** The most cards an export of a Browse selection names (as many as a bulk edit changes). */
export const MAX_EXPORT_CARDS = 20_000;
/** The learner's exports are listed this many at a time. */
export const EXPORT_PAGE_SIZE = 20;

/** exports.start: what to export. */
export const startExportInput = z
  .object({
    format: z.enum(EXPORT_FORMATS, 'The format must be apkg, csv or json.'),
    tagIds: z
      .array(z.uuid('A tag id is not valid.'))
      .max(MAX_EXPORT_TAGS, `An export can be limited to at most ${MAX_EXPORT_TAGS} tags.`)
      .optional(),
    /** A selection of the Browse screen: only these cards. */
    cardIds: z
      .array(z.uuid('A card id is not valid.'))
      .max(MAX_EXPORT_CARDS, `An export of chosen cards holds at most ${MAX_EXPORT_CARDS.toLocaleString('en')}.`)
      .optional(),
  })
  .refine((input) => input.format !== 'json' || !input.cardIds?.length, {
    message: 'A full export holds everything; choose cards for a CSV or Anki export.',
    path: ['cardIds'],
  })
  .refine((input) => input.format !== 'json' || !input.tagIds?.length, {
    message: 'A full export holds everything; choose tags for a CSV or Anki export.',
    path: ['tagIds'],
  });
export type StartExportInput = z.infer<typeof startExportInput>;

/** exports.get: one export. */
export const getExportInput = z.object({ exportId: z.uuid('The export is not valid.') });

/** exports.list: the learner's exports, newest first. */
export const listExportsInput = z
  .object({
    pageSize: z.number().int().min(1).max(100, 'A page holds at most 100 exports.').optional(),
    cursor: z.string().nullish(),
  })
  .optional();
