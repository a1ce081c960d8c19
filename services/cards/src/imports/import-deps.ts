// What the import handlers use beside the database: the object store holding the uploaded files, the learner's
// storage quota (recorded with the import: the job has no token to ask billing with) and the work queue's
// doorbell for a new import.
import type { MediaDeps } from '../media/media-deps.js';

/** The queue whose jobs are imports (any cards replica takes them). */
export const IMPORTS_QUEUE = 'cards.imports';

export interface ImportServiceDeps extends MediaDeps {
  /** Rings for import `id` (committed before); never throws: an import not rung now is found and rung later. */
  enqueueImport: (id: string) => Promise<void>;
}
