// The cards service's parts: its stores (Prisma and a pg pool on one schema), the object store of card files
// (S3, or the local stand-in) with its sweeper, a client of billing (storage quotas), its seven gRPC
// services, its events (relay and consumers) and its jobs (imports, exports, optimizations, each run in a process
// of its own). runService boots
// and stops them in its order (docs/architecture.md#boot-and-shutdown).
import { warmDatabase } from '@engram/kit/db';
import { createClient } from '@engram/kit/grpc/client';
import { serviceNameOf } from '@engram/kit/grpc/service-name';
import { startCleanup } from '@engram/kit/jobs/periodic';
import { jobsOf, runService, serviceRuntime } from '@engram/kit/service';
import { BillingServiceClient } from '@engram/proto/billing/v1/billing';
import { CardsServiceService } from '@engram/proto/cards/v1/cards';
import { fetchAnkiMedia } from './anki-connect/media-files.js';
import { createComputes } from './compute/compute-pool.js';
import { readConfig } from './config.js';
import { closeStores, createStores } from './db.js';
import { cardsEvents } from './events/index.js';
import { EXPORTS_QUEUE } from './exports/export-deps.js';
import { IMPORTS_QUEUE } from './imports/import-deps.js';
import { type JobTable, unfinishedJobs } from './jobs/job-row.js';
import { sandboxedJob } from './jobs/sandboxed-job.js';
import { openObjectStore } from './media/object-store.js';
import { billingQuota } from './media/quota.js';
import { objectSweep } from './media/sweeper.js';
import { OPTIMIZATIONS_QUEUE } from './optimizer/run-optimization.js';
import { cardsServices } from './server.js';

const config = readConfig();
const runtime = serviceRuntime(serviceNameOf(CardsServiceService), config);

const stores = createStores(config.DATABASE_URL, { logger: runtime.logger });
const store = await openObjectStore(config, runtime.logger);
const billing = createClient(BillingServiceClient, config.BILLING_ADDR);
const sweeper = startCleanup(
  objectSweep(stores.db, store, config.MEDIA_SWEEP_INTERVAL_SECONDS * 1_000),
  runtime.logger,
);

// Each job runs in a process of its own (jobs/sandboxed-job.ts), never in this one, which serves the calls.
const MINUTE_MS = 60_000;
const jobMemoryBytes = config.JOB_MEMORY_MB * 1024 * 1024;
const jobQueue = (queue: string, table: JobTable, timeoutMinutes: number) => ({
  queue,
  run: sandboxedJob(
    stores.db,
    table,
    { memoryBytes: jobMemoryBytes, timeoutMs: timeoutMinutes * MINUTE_MS },
    runtime.logger,
  ),
  unfinished: () => unfinishedJobs(stores.db, table),
  concurrency: config.JOB_CONCURRENCY,
});
const jobs = jobsOf(runtime, [
  jobQueue(IMPORTS_QUEUE, 'imports', config.IMPORT_TIMEOUT_MINUTES),
  jobQueue(EXPORTS_QUEUE, 'exports', config.EXPORT_TIMEOUT_MINUTES),
  jobQueue(OPTIMIZATIONS_QUEUE, 'optimizations', config.OPTIMIZATION_TIMEOUT_MINUTES),
]);

// Simulations, retention recommendations, rescheduling plans and uploaded card files: in child processes too
// (compute/compute-pool.ts).
const computes = createComputes(runtime.logger);

await runService(runtime, {
  services: cardsServices(
    stores,
    runtime.serverOptions,
    {
      store,
      quotaOf: billingQuota(billing),
      enqueueImport: (id) => jobs.enqueue(IMPORTS_QUEUE, id),
      enqueueExport: (id) => jobs.enqueue(EXPORTS_QUEUE, id),
      enqueueOptimization: (id) => jobs.enqueue(OPTIMIZATIONS_QUEUE, id),
      // Only public addresses: a tool's media `url` never reaches inside the cluster.
      fetchUrl: fetchAnkiMedia({ allowPrivate: false }),
    },
    computes,
  ),
  warmUp: () => Promise.all([warmDatabase(stores.db), warmDatabase(stores.pool)]),
  events: cardsEvents(stores.db, config),
  jobs,
  close: [
    { name: 'object sweeper', run: () => sweeper.stop() },
    { name: 'computations', run: () => computes.forecasts.close() },
    { name: 'file checks', run: () => computes.fileChecks.close() },
    { name: 'billing client', run: () => billing.close() },
    { name: 'object store', run: () => store.close() },
    { name: 'database', run: () => closeStores(stores) },
  ],
});
