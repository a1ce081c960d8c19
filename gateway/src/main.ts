// Boots the gateway: config → telemetry → logger → clients, Redis and the session cache (told of revocations)
// → Redis connected (or given up on) → the services' connections (or 5 s) → HTTP server → ready → graceful shutdown.
import type { AddressInfo } from 'node:net';
import { connectClients } from '@engram/kit/grpc/client';
import { startHealthServer } from '@engram/kit/health';
import { drainable, keepIdleConnections } from '@engram/kit/http-drain';
import { createInternalTokenSigner } from '@engram/kit/internal-auth';
import { createLogger } from '@engram/kit/logger';
import { onShutdown } from '@engram/kit/shutdown';
import { startTelemetry } from '@engram/kit/telemetry';
import { Redis } from 'ioredis';
import { createApp } from './app.js';
import { clientsOf, closeServices, createServices } from './clients.js';
import { readConfig } from './config.js';
import { closeAnkiConnectBodies } from './http/anki-connect-bodies.js';
import { liveEvents } from './http/live-events.js';
import { createMediaRateLimits, createTrpcRateLimits } from './rate-limit.js';
import { firstConnection } from './redis-connection.js';
import { createSessionResolver } from './session.js';
import { listenForRevocations } from './session-revocations.js';

/** How long a starting gateway waits for its connections to the services before it says ready without them. */
const CONNECT_BEFORE_READY_MS = 5_000;

const config = readConfig();
const telemetry = startTelemetry({ service: 'gateway', otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT });
const logger = createLogger({ service: 'gateway', level: config.LOG_LEVEL });

const signer = await createInternalTokenSigner(config.INTERNAL_TOKEN_PRIVATE_KEY);
const services = createServices(
  {
    identity: config.IDENTITY_ADDR,
    cards: config.CARDS_ADDR,
    organizations: config.ORGANIZATIONS_ADDR,
    billing: config.BILLING_ADDR,
    ai: config.AI_ADDR,
  },
  signer,
);
// Auto-pipelining: the rate-limit counts of requests arriving together go to Redis in one write.
const redis = new Redis(config.REDIS_URL, {
  maxRetriesPerRequest: 1,
  enableOfflineQueue: false,
  enableAutoPipelining: true,
});
redis.on('error', (error) => logger.warn({ err: error }, 'Redis connection problem'));
const rateLimits = createTrpcRateLimits(redis, {
  windowSeconds: config.TRPC_RATE_LIMIT_WINDOW_SECONDS,
  perUser: config.TRPC_RATE_LIMIT_PER_USER,
  perAddress: config.TRPC_RATE_LIMIT_PER_ADDRESS,
  costlyPerUser: {
    stripe: config.TRPC_RATE_LIMIT_STRIPE_PER_USER,
    generate: config.TRPC_RATE_LIMIT_GENERATE_PER_USER,
    upload: config.TRPC_RATE_LIMIT_UPLOAD_PER_USER,
    forecast: config.TRPC_RATE_LIMIT_FORECAST_PER_USER,
    sync: config.TRPC_RATE_LIMIT_SYNC_PER_USER,
  },
  keyPrefix: config.REDIS_KEY_PREFIX,
});
const mediaRateLimits = createMediaRateLimits(redis, {
  windowSeconds: config.MEDIA_RATE_LIMIT_WINDOW_SECONDS,
  perUser: config.MEDIA_RATE_LIMIT_PER_USER,
  perAddress: config.MEDIA_RATE_LIMIT_PER_ADDRESS,
  keyPrefix: config.REDIS_KEY_PREFIX,
});
const sessions = createSessionResolver(services);
const revocations = listenForRevocations(redis, config.REDIS_KEY_PREFIX, sessions, logger);
const live = liveEvents(redis, config.REDIS_KEY_PREFIX, sessions, logger);
const production = config.NODE_ENV === 'production';
const health = await startHealthServer(config.METRICS_PORT);
const app = createApp({
  logger,
  services,
  identityHttpUrl: config.IDENTITY_HTTP_URL,
  billingHttpUrl: config.BILLING_HTTP_URL,
  webDistDir: config.WEB_DIST_DIR,
  publicBaseUrl: config.PUBLIC_BASE_URL,
  publicConfig: {
    supportEmail: config.SUPPORT_EMAIL,
    analyticsId: config.GA_MEASUREMENT_ID,
    googleClientId: config.GOOGLE_CLIENT_ID,
  },
  captchaProvider: config.CAPTCHA_PROVIDER,
  trustedOrigins: config.TRUSTED_ORIGINS,
  uploadOrigins: config.MEDIA_UPLOAD_ORIGINS,
  trustedProxies: config.TRUSTED_PROXIES,
  trpcMaxBodyBytes: config.TRPC_MAX_BODY_BYTES,
  trpcMaxBatchSize: config.TRPC_MAX_BATCH_SIZE,
  rateLimits,
  mediaRateLimits,
  devRoutes: config.NODE_ENV !== 'production',
  sessions,
  live,
  devMailbox: production ? undefined : { redis, keyPrefix: config.REDIS_KEY_PREFIX },
});
// Ready only once the rate limits count in Redis, shared with the other replicas (redis-connection.ts).
await firstConnection(redis, logger);
// Connected to the services before ready, so that a new replica's first requests (a rolling update sends it a
// share of all of them at once) do not each wait for a connection; a service not up yet is connected to later.
const clients = clientsOf(services);
const connected = await connectClients(clients, CONNECT_BEFORE_READY_MS);
logger.info({ connected, clients: clients.length }, 'gRPC clients connected');
const server = app.listen(config.PORT, '0.0.0.0', (error?: Error) => {
  if (error) {
    logger.fatal({ err: error }, 'cannot listen');
    process.exit(1);
  }
  health.setReady(true);
  logger.info({ port: (server.address() as AddressInfo).port, url: config.PUBLIC_BASE_URL }, 'gateway ready');
});
keepIdleConnections(server);
const draining = drainable(server);

onShutdown(logger, [
  { name: 'not ready', run: () => health.setReady(false) },
  // Kubernetes keeps sending traffic for a moment after SIGTERM; keep serving through the drain.
  { name: 'drain', run: () => new Promise((r) => setTimeout(r, production ? 5_000 : 0)) },
  // Open tabs' event streams end (they open again, on another replica) so that the drain below can finish.
  { name: 'live events', run: () => live.close() },
  // Every request that reached the gateway is answered; keep-alive connections close after their answer.
  { name: 'http', run: () => draining.drain() },
  { name: 'AnkiConnect bodies', run: () => closeAnkiConnectBodies() },
  { name: 'clients', run: () => closeServices(services) },
  { name: 'revocations', run: () => revocations.close() },
  { name: 'redis', run: () => redis.quit().then(() => undefined) },
  { name: 'telemetry', run: () => telemetry.shutdown() },
  { name: 'health', run: () => health.close() },
]);
