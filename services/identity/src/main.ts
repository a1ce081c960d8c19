// Boots the identity service: config → telemetry → logger → database and Redis → auth HTTP + gRPC → SERVING.
import { runService, serviceRuntime } from '@engram/kit/service';
import { createAuth } from './auth.js';
import { readConfig } from './config.js';
import { createDb } from './db.js';
import { startAuthHttpServer } from './http/server.js';
import { createRedis, redisSecondaryStorage } from './secondary-storage.js';
import { identityService } from './server.js';

const config = readConfig();
const runtime = serviceRuntime('identity', config);
const { logger } = runtime;

const db = createDb(config.DATABASE_URL);
const redis = createRedis(config.REDIS_URL);
redis.on('error', (error) => logger.warn({ err: error }, 'Redis connection problem'));
const auth = createAuth(db, {
  secret: config.BETTER_AUTH_SECRET,
  publicBaseUrl: config.PUBLIC_BASE_URL,
  extraTrustedOrigins: config.AUTH_TRUSTED_ORIGINS ?? [],
  checkPwnedPasswords: config.AUTH_CHECK_PWNED_PASSWORDS,
  secondaryStorage: redisSecondaryStorage(redis, config.REDIS_KEY_PREFIX),
  rateLimit: {
    windowSeconds: config.AUTH_RATE_LIMIT_WINDOW_SECONDS,
    max: config.AUTH_RATE_LIMIT_MAX,
    signInMax: config.AUTH_RATE_LIMIT_SIGN_IN_MAX,
  },
  logger,
});
const http = await startAuthHttpServer(auth, config.HTTP_PORT, logger);

await runService(runtime, {
  services: [identityService(auth, runtime.serverOptions)],
  close: [
    { name: 'auth http', run: () => http.close() },
    { name: 'database', run: () => db.$disconnect() },
    { name: 'redis', run: () => redis.quit() },
  ],
});
