// Imports, as the gateway takes them and the web app shows them (the API names are the public contract,
// issue "bring your collection"): which file, which format, and for a CSV or TSV which column holds what.
import { MAX_ACTIVE_IMPORTS } from './collection-limits.ts';
import { importProblem } from './import-problems.ts';
import { IMPORT_EXTENSIONS, IMPORT_FORMATS, type ImportFormat } from './media.ts';
import { z } from './zod.ts';

export const IMPORT_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** What a CSV column may hold; `ignore` leaves it out. */
export const COLUMN_ROLES = ['front', 'back', 'tags', 'type', 'ignore'] as const;
export type ColumnRole = (typeof COLUMN_ROLES)[number];

/** The learner's imports are listed this many at a time. */
export const IMPORT_PAGE_SIZE = 20;

export const IMPORT_REASONS = {
  /** The learner has MAX_ACTIVE_IMPORTS (collection-limits) imports queued or running already. */
  tooManyActive: 'IMPORTS_BUSY',
} as const;

export const tooManyImportsMessage = () =>
  `You already have ${MAX_ACTIVE_IMPORTS} imports waiting or running. Wait until one of them is done, then start this one.`;

/** The format an import's file name says, or undefined when it is none an import takes. */
export function importFormatOf(name: string): ImportFormat | undefined {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const extension = name.slice(dot + 1).toLowerCase();
  return Object.hasOwn(IMPORT_EXTENSIONS, extension) ? IMPORT_EXTENSIONS[extension] : undefined;
}

const column = z.number().int('Choose a column.').min(0, 'Choose a column.').max(1_000, 'Choose a column.');

/**
 * Which column holds the front, and optionally the back, the tags and the card type. Without a back, the front
 * column holds both sides, split at a line of `---` (Mochi's cards).
 */
export const columnMapping = z
  .object({
    front: z.number(importProblem('frontColumnMissing').message).pipe(column),
    back: column.optional(),
    tags: column.optional(),
    type: column.optional(),
  })
  .refine(
    (mapping) => {
      const chosen = Object.values(mapping).filter((index) => index !== undefined);
      return new Set(chosen).size === chosen.length;
    },
    { message: 'Each column can hold one thing only.' },
  );
export type ColumnMapping = z.infer<typeof columnMapping>;

const uploadId = z.uuid('The file to import is not valid. Please send it again.');

/** imports.preview: a look at an uploaded CSV or TSV file. */
export const previewImportInput = z.object({ uploadId });

/** imports.start: the import of an uploaded file. */
export const startImportInput = z.object({
  uploadId,
  format: z.enum(IMPORT_FORMATS, 'The format must be apkg, colpkg, csv or tsv.').optional(),
  mapping: columnMapping.optional(),
});
export type StartImportInput = z.infer<typeof startImportInput>;

/** imports.get: one import. */
export const getImportInput = z.object({ importId: z.uuid('The import is not valid.') });

/** imports.list: the learner's imports, newest first. */
export const listImportsInput = z
  .object({
    pageSize: z.number().int().min(1).max(100, 'A page holds at most 100 imports.').optional(),
    cursor: z.string().nullish(),
  })
  .optional();
