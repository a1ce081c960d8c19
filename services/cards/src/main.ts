// The cards service's parts: its stores (Prisma and a pg pool on one schema), the object store of card files
// (S3, or the local stand-in) with its sweeper, a client of billing (storage quotas), its seven gRPC
// services, its events (relay and consumers) and its jobs (imports, exports, optimizations). runService boots
// and stops them in its order (docs/architecture.md#boot-and-shutdown).
import { createClient } from '@engram/kit/grpc/client';
import { serviceNameOf } from '@engram/kit/grpc/service-name';
import { jobsOf, runService, serviceRuntime } from '@engram/kit/service';
import { createObjectStore } from '@engram/kit/storage';
import { BillingServiceClient } from '@engram/proto/billing/v1/billing';
import { CardsServiceService } from '@engram/proto/cards/v1/cards';
import { readConfig } from './config.js';
import { closeStores, createStores } from './db.js';
import { cardsEvents } from './events/index.js';
import { EXPORTS_QUEUE } from './exports/export-deps.js';
import { runExport } from './exports/run-export.js';
import { IMPORTS_QUEUE } from './imports/import-deps.js';
import { runImport } from './imports/run-import.js';
import { unfinishedJobs } from './jobs/job-row.js';
import { billingQuota } from './media/quota.js';
import { startObjectSweeper } from './media/sweeper.js';
import { OPTIMIZATIONS_QUEUE, runOptimization } from './optimizer/run-optimization.js';
import { cardsServices } from './server.js';

const config = readConfig();
const runtime = serviceRuntime(serviceNameOf(CardsServiceService), config);

const stores = createStores(config.DATABASE_URL, { logger: runtime.logger });
const store = await createObjectStore(config.storage, { nodeEnv: config.NODE_ENV, logger: runtime.logger });
const billing = createClient(BillingServiceClient, config.BILLING_ADDR);
const sweeper = startObjectSweeper(stores.db, store, runtime.logger, config.MEDIA_SWEEP_INTERVAL_SECONDS * 1_000);

const jobs = jobsOf(runtime, [
  {
    queue: IMPORTS_QUEUE,
    run: (id, { signal }) =>
      runImport({ db: stores.db, pool: stores.pool, store, logger: runtime.logger }, id, { signal }),
    unfinished: () => unfinishedJobs(stores.db, 'imports'),
  },
  {
    queue: EXPORTS_QUEUE,
    run: (id, { signal }) => runExport({ stores, store, logger: runtime.logger }, id, { signal }),
    unfinished: () => unfinishedJobs(stores.db, 'exports'),
  },
  {
    queue: OPTIMIZATIONS_QUEUE,
    run: (id, { signal }) =>
      runOptimization({ stores, logger: runtime.logger, minimumReviews: config.OPTIMIZE_MINIMUM_REVIEWS }, id, {
        signal,
      }),
    unfinished: () => unfinishedJobs(stores.db, 'optimizations'),
  },
]);

await runService(runtime, {
  services: cardsServices(stores, runtime.serverOptions, {
    store,
    quotaOf: billingQuota(billing),
    enqueueImport: (id) => jobs.enqueue(IMPORTS_QUEUE, id),
    enqueueExport: (id) => jobs.enqueue(EXPORTS_QUEUE, id),
    enqueueOptimization: (id) => jobs.enqueue(OPTIMIZATIONS_QUEUE, id),
  }),
  events: cardsEvents(stores.db, config),
  jobs,
  close: [
    { name: 'object sweeper', run: () => sweeper.stop() },
    { name: 'billing client', run: () => billing.close() },
    { name: 'object store', run: () => store.close() },
    { name: 'database', run: () => closeStores(stores) },
  ],
});
