// Boots the ai service: config → telemetry → logger → database → clients of cards and billing → the
// generator → the upload reader pool and sweeper → events (consumers) → gRPC server → SERVING → shutdown hooks.
import { createClient } from '@engram/kit/grpc/client';
import { runService, serviceRuntime } from '@engram/kit/service';
import { BillingServiceClient } from '@engram/proto/billing/v1/billing';
import { CardsServiceClient } from '@engram/proto/cards/v1/cards';
import { readConfig } from './config.js';
import { createDb } from './db.js';
import { aiEvents } from './events/index.js';
import { createGenerator } from './generators/index.js';
import { aiService } from './server.js';
import { createReaderPool } from './uploads/reader-pool.js';
import { startUploadSweeper } from './uploads/sweeper.js';

const config = readConfig();
const runtime = serviceRuntime('ai', config);

const db = createDb(config.DATABASE_URL, runtime.logger);
const cards = createClient(CardsServiceClient, config.CARDS_ADDR);
const billing = createClient(BillingServiceClient, config.BILLING_ADDR);
const generator = createGenerator(config, runtime.logger);
const readerPool = createReaderPool(config.uploads.reader, runtime.logger);
const sweeper = startUploadSweeper(db, runtime.logger, config.uploads.sweepIntervalMs);

await runService(runtime, {
  services: [
    aiService(
      {
        db,
        cards,
        billing,
        generator,
        generationTimeoutMs: config.generationTimeoutMs,
        uploads: { reader: { pool: readerPool, limits: config.uploads.reader }, quota: config.uploads.quota },
      },
      { ...runtime.serverOptions, version: config.SERVICE_VERSION },
    ),
  ],
  events: aiEvents(db),
  close: [
    { name: 'upload readers', run: () => readerPool.close() },
    { name: 'upload sweeper', run: () => sweeper.stop() },
    {
      name: 'service clients',
      run: () => {
        cards.close();
        billing.close();
      },
    },
    { name: 'database', run: () => db.$disconnect() },
  ],
});
