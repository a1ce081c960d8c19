// How much import and export work one learner may hold at once (docs/product.md#importing-and-exporting): the
// largest file to import, the files sent to import and waiting (how long, how many, how much by plan), and the
// imports and exports queued or running. No zod here: the web app's error catalogue, on every page, reads them.
import type { PlanOrFree } from './billing.ts';

/** The largest collection file an import takes. */
export const MAX_IMPORT_BYTES = 2 * 1024 * 1024 * 1024;
/** How long a file sent to import waits to be imported; then the sweeper removes it and its bytes. */
export const IMPORT_UPLOAD_HOURS = 3;
/**
 * What a learner's files waiting to be imported (sent, their import not yet over) may number and weigh together,
 * by plan: they sit in the store until imported or expired. Free: one file of the largest size, or two smaller.
 */
export const IMPORT_UPLOAD_ALLOWANCE: Record<PlanOrFree, { files: number; bytes: number }> = {
  free: { files: 2, bytes: MAX_IMPORT_BYTES },
  plus: { files: 4, bytes: 2 * MAX_IMPORT_BYTES },
  pro: { files: 8, bytes: 4 * MAX_IMPORT_BYTES },
};
/** The allowance of `plan` (a plan this version does not know has the free one). */
export const importUploadAllowance = (plan: string) =>
  Object.hasOwn(IMPORT_UPLOAD_ALLOWANCE, plan)
    ? IMPORT_UPLOAD_ALLOWANCE[plan as PlanOrFree]
    : IMPORT_UPLOAD_ALLOWANCE.free;

/** A learner's imports, and exports, queued or running at once: one more is refused until one of them is over. */
export const MAX_ACTIVE_IMPORTS = 2;
export const MAX_ACTIVE_EXPORTS = 2;
