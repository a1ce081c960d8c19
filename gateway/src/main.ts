// Boots the gateway: config → telemetry → logger → clients → HTTP server → ready → graceful shutdown.
import type { AddressInfo } from 'node:net';
import { startHealthServer } from '@engram/kit/health';
import { createInternalTokenSigner } from '@engram/kit/internal-auth';
import { createLogger } from '@engram/kit/logger';
import { onShutdown } from '@engram/kit/shutdown';
import { startTelemetry } from '@engram/kit/telemetry';
import { createApp } from './app.js';
import { closeServices, createServices } from './clients.js';
import { readConfig } from './config.js';

const config = readConfig();
const telemetry = startTelemetry({ service: 'gateway', otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT });
const logger = createLogger({ service: 'gateway', level: config.LOG_LEVEL });

const signer = await createInternalTokenSigner(config.INTERNAL_TOKEN_PRIVATE_KEY);
const services = createServices({ identity: config.IDENTITY_ADDR, cards: config.CARDS_ADDR }, signer);
const health = await startHealthServer(config.METRICS_PORT);
const app = createApp({
  logger,
  services,
  identityHttpUrl: config.IDENTITY_HTTP_URL,
  billingHttpUrl: config.BILLING_HTTP_URL,
  webDistDir: config.WEB_DIST_DIR,
});
const server = app.listen(config.PORT, '0.0.0.0', (error?: Error) => {
  if (error) {
    logger.fatal({ err: error }, 'cannot listen');
    process.exit(1);
  }
  health.setReady(true);
  logger.info({ port: (server.address() as AddressInfo).port, url: config.PUBLIC_BASE_URL }, 'gateway ready');
});

onShutdown(logger, [
  { name: 'not ready', run: () => health.setReady(false) },
  // Kubernetes keeps sending traffic for a moment after SIGTERM; keep serving through the drain.
  { name: 'drain', run: () => new Promise((r) => setTimeout(r, config.NODE_ENV === 'production' ? 5_000 : 0)) },
  { name: 'http', run: () => new Promise<void>((resolve) => server.close(() => resolve())) },
  { name: 'clients', run: () => closeServices(services) },
  { name: 'telemetry', run: () => telemetry.shutdown() },
  { name: 'health', run: () => health.close() },
]);
