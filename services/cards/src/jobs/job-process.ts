// The process one job runs in (docs/architecture.md#bulkheads): an import, an export or an optimization reads
// untrusted files, runs native code (SQLite, sharp, fsrs-rs) or works the CPU for minutes, so it never runs in
// the process that serves learners' calls. Started by jobs/sandboxed-job.ts with the service's configuration,
// it opens its own stores, runs the job as before (claiming its row, keeping its heartbeat), answers, and ends.
// Whatever the job does to this process (a panic, an out-of-memory, an endless loop) ends it alone.
import { createLogger } from '@engram/kit/logger';
import { answerParent } from '@engram/kit/sandbox/answer-parent';
import { readConfig } from '../config.js';
import { closeStores, createStores } from '../db.js';
import { runExport } from '../exports/run-export.js';
import { runImport } from '../imports/run-import.js';
import { openObjectStore } from '../media/object-store.js';
import { runOptimization } from '../optimizer/run-optimization.js';
import type { JobRequest } from './sandboxed-job.js';

answerParent<JobRequest, 'done'>(async ({ table, jobId }, signal) => {
  const config = readConfig();
  const logger = createLogger({ service: 'cards', level: config.LOG_LEVEL }).child({ job: table });
  // A job is one caller: a few connections are plenty (an Anki export reads on two at once, its cards and their
  // reviews).
  const stores = createStores(config.DATABASE_URL, { poolSize: 3, logger });
  try {
    if (table === 'optimizations') {
      await runOptimization({ stores, logger, minimumReviews: config.OPTIMIZE_MINIMUM_REVIEWS }, jobId, { signal });
      return 'done';
    }
    // Imports and exports read and write card files: the store the service uses (its stand-in, when local).
    const store = await openObjectStore(config, logger);
    try {
      if (table === 'imports') await runImport({ db: stores.db, pool: stores.pool, store, logger }, jobId, { signal });
      else await runExport({ stores, store, logger }, jobId, { signal });
    } finally {
      await store.close();
    }
    return 'done';
  } finally {
    await closeStores(stores);
  }
});
