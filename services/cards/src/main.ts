// Boots the cards service: config → telemetry → logger → connections → gRPC server → SERVING → shutdown.
import { createPool } from '@engram/kit/db';
import { startOutboxRelay } from '@engram/kit/events/relay';
import { ensureEventStream } from '@engram/kit/events/setup';
import { createInternalTokenVerifier } from '@engram/kit/internal-auth';
import { createLogger } from '@engram/kit/logger';
import { connectNats } from '@engram/kit/nats';
import { runService } from '@engram/kit/service';
import { startTelemetry } from '@engram/kit/telemetry';
import { readConfig } from './config.js';
import { createDb } from './db.js';
import { cardsService } from './server.js';

const SERVICE = 'cards';
const config = readConfig();
const telemetry = startTelemetry({ service: SERVICE, otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT });
const logger = createLogger({ service: SERVICE, level: config.LOG_LEVEL });

const db = createDb(config.DATABASE_URL);
const pool = createPool(config.DATABASE_URL, { applicationName: `${SERVICE}-relay`, max: 2 });
const nats = await connectNats(config.NATS_URL, SERVICE, logger);
await ensureEventStream(nats, { streamName: config.EVENTS_STREAM, subjectPrefix: config.EVENTS_SUBJECT_PREFIX });
const relay = startOutboxRelay({ pool, nats, subjectPrefix: config.EVENTS_SUBJECT_PREFIX, logger });
const verifier = createInternalTokenVerifier(config.INTERNAL_TOKEN_PUBLIC_KEYS, SERVICE);

await runService({
  name: SERVICE,
  logger,
  telemetry,
  grpcPort: config.GRPC_PORT,
  metricsPort: config.METRICS_PORT,
  services: [cardsService(db, { service: SERVICE, logger, verifier })],
  drainMs: config.NODE_ENV === 'production' ? 5_000 : 0,
  close: [
    { name: 'outbox relay', run: () => relay.stop() },
    { name: 'nats', run: () => nats.drain() },
    { name: 'database', run: () => Promise.all([db.$disconnect(), pool.end()]) },
  ],
});
