// What the export handlers use beside the database: the object store that holds the files (for their links)
// and the work queue's doorbell for a new export.
import type { ObjectStore } from '@engram/kit/storage';
import type { Db } from '../db.js';

/** The queue whose jobs are exports (any cards replica takes them). */
export const EXPORTS_QUEUE = 'cards.exports';

export interface ExportServiceDeps {
  db: Db;
  store: ObjectStore;
  /** Rings for export `id` (committed before); never throws: one not rung now is found and rung later. */
  enqueueExport: (id: string) => Promise<void>;
}
