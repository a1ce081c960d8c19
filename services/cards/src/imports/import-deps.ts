// What the import handlers use beside the database: the object store holding the uploaded files, the learner's
// storage quota (recorded with the import: the job has no token to ask billing with) and the work queue's
// doorbell for a new import; and what an import job runs with and reports (run-import.ts, anki-import.ts).
import type { PackageLimits } from '@engram/anki/open-package';
import type { ImportProblemReason } from '@engram/contracts/import-problems';
import type { Logger } from '@engram/kit/logger';
import type { ObjectStore } from '@engram/kit/storage';
import type pg from 'pg';
import type { Db } from '../db.js';
import type { MediaDeps } from '../media/media-deps.js';

/** The queue whose jobs are imports (any cards replica takes them). */
export const IMPORTS_QUEUE = 'cards.imports';

export interface ImportServiceDeps extends MediaDeps {
  /** Rings for import `id` (committed before); never throws: an import not rung now is found and rung later. */
  enqueueImport: (id: string) => Promise<void>;
}

export interface ImportDeps {
  db: Db;
  /** The pool an Anki package's cards are written over (anki-writes says why not Prisma). */
  pool: pg.Pool;
  store: ObjectStore;
  logger: Logger;
  /** What an Anki package may hold (@engram/anki's defaults otherwise). */
  packageLimits?: Partial<PackageLimits>;
}

export interface ImportCounts {
  notes: number;
  cards: number;
  reviews: number;
  media: number;
  skipped: number;
}

/** One thing an import skipped or failed on: its reason and values (contracts' import-problems) and English. */
export interface ImportProblem {
  line?: number;
  message: string;
  reason?: ImportProblemReason;
  values?: Record<string, string>;
}
