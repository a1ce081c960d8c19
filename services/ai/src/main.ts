// The ai service's parts: its database, clients of cards and billing, the card generator (Bedrock or the
// offline one), the pool of upload readers and the sweeper of expired uploads, and its event consumers.
// runService boots and stops them in its order (docs/architecture.md#boot-and-shutdown).
import { warmDatabase } from '@engram/kit/db';
import { createClient } from '@engram/kit/grpc/client';
import { serviceNameOf } from '@engram/kit/grpc/service-name';
import { startCleanup } from '@engram/kit/jobs/periodic';
import { runService, serviceRuntime } from '@engram/kit/service';
import { AiServiceService } from '@engram/proto/ai/v1/ai';
import { BillingServiceClient } from '@engram/proto/billing/v1/billing';
import { CardsServiceClient } from '@engram/proto/cards/v1/cards';
import { readConfig } from './config.js';
import { createDb } from './db.js';
import { aiEvents } from './events/index.js';
import { createGenerator } from './generators/index.js';
import { aiService } from './server.js';
import { createReaderPool } from './uploads/reader-pool.js';
import { uploadSweep } from './uploads/sweeper.js';

const config = readConfig();
const runtime = serviceRuntime(serviceNameOf(AiServiceService), config);

const db = createDb(config.DATABASE_URL, runtime.logger);
const cards = createClient(CardsServiceClient, config.CARDS_ADDR);
const billing = createClient(BillingServiceClient, config.BILLING_ADDR);
const generator = createGenerator(config, runtime.logger);
const readerPool = createReaderPool(config.uploads.reader, runtime.logger);
const sweeper = startCleanup(uploadSweep(db, config.uploads.sweepIntervalMs), runtime.logger);

await runService(runtime, {
  warmUp: () => warmDatabase(db),
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
