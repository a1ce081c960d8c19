// Boots the identity service: config → telemetry → logger → database and Redis → auth HTTP + gRPC → SERVING.
import { createInternalTokenVerifier } from '@engram/kit/internal-auth';
import { createLogger } from '@engram/kit/logger';
import { runService } from '@engram/kit/service';
import { startTelemetry } from '@engram/kit/telemetry';
import { createAuth } from './auth.js';
import { readConfig } from './config.js';
import { createDb } from './db.js';
import { startAuthHttpServer } from './http/server.js';
import { createRedis, redisSecondaryStorage } from './secondary-storage.js';
import { identityService } from './server.js';

const SERVICE = 'identity';
const config = readConfig();
const telemetry = startTelemetry({ service: SERVICE, otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT });
const logger = createLogger({ service: SERVICE, level: config.LOG_LEVEL });

const db = createDb(config.DATABASE_URL);
const redis = createRedis(config.REDIS_URL);
redis.on('error', (error) => logger.warn({ err: error }, 'Redis connection problem'));
const auth = createAuth(db, {
  secret: config.BETTER_AUTH_SECRET,
  publicBaseUrl: config.PUBLIC_BASE_URL,
  extraTrustedOrigins: config.AUTH_TRUSTED_ORIGINS ?? [],
  checkPwnedPasswords: config.AUTH_CHECK_PWNED_PASSWORDS,
  secondaryStorage: redisSecondaryStorage(redis),
  logger,
});
const http = await startAuthHttpServer(auth, config.HTTP_PORT, logger);
const verifier = createInternalTokenVerifier(config.INTERNAL_TOKEN_PUBLIC_KEYS, SERVICE);

await runService({
  name: SERVICE,
  logger,
  telemetry,
  grpcPort: config.GRPC_PORT,
  metricsPort: config.METRICS_PORT,
  services: [identityService(auth, { service: SERVICE, logger, verifier })],
  drainMs: config.NODE_ENV === 'production' ? 5_000 : 0,
  close: [
    { name: 'auth http', run: () => http.close() },
    { name: 'database', run: () => db.$disconnect() },
    { name: 'redis', run: () => redis.quit() },
  ],
});
