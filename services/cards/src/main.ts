// Boots the cards service: config → telemetry → logger → connections → gRPC server → SERVING → shutdown.
import { createPool } from '@engram/kit/db';
import { startOutboxRelay } from '@engram/kit/events/relay';
import { ensureEventStream } from '@engram/kit/events/setup';
import { connectNats } from '@engram/kit/nats';
import { runService, serviceRuntime } from '@engram/kit/service';
import { readConfig } from './config.js';
import { closeStores, createStores } from './db.js';
import { cardsServices } from './server.js';

const config = readConfig();
const runtime = serviceRuntime('cards', config);
const { logger } = runtime;

const stores = createStores(config.DATABASE_URL);
const pool = createPool(config.DATABASE_URL, { applicationName: 'cards-relay', max: 2 });
const nats = await connectNats(config.NATS_URL, 'cards', logger);
await ensureEventStream(nats, { streamName: config.EVENTS_STREAM, subjectPrefix: config.EVENTS_SUBJECT_PREFIX });
const relay = startOutboxRelay({ pool, nats, subjectPrefix: config.EVENTS_SUBJECT_PREFIX, logger });

await runService(runtime, {
  services: cardsServices(stores, runtime.serverOptions),
  close: [
    { name: 'outbox relay', run: () => relay.stop() },
    { name: 'nats', run: () => nats.drain() },
    { name: 'database', run: () => Promise.all([closeStores(stores), pool.end()]) },
  ],
});
