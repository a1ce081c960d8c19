// Boots the ai service: config → telemetry → logger → gRPC server → SERVING → shutdown hooks.
import { createInternalTokenVerifier } from '@engram/kit/internal-auth';
import { createLogger } from '@engram/kit/logger';
import { runService } from '@engram/kit/service';
import { startTelemetry } from '@engram/kit/telemetry';
import { readConfig } from './config.js';
import { aiService } from './server.js';

const SERVICE = 'ai';
const config = readConfig();
const telemetry = startTelemetry({ service: SERVICE, otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT });
const logger = createLogger({ service: SERVICE, level: config.LOG_LEVEL });
const verifier = createInternalTokenVerifier(config.INTERNAL_TOKEN_PUBLIC_KEYS, SERVICE);

await runService({
  name: SERVICE,
  logger,
  telemetry,
  grpcPort: config.GRPC_PORT,
  metricsPort: config.METRICS_PORT,
  services: [aiService({ service: SERVICE, logger, verifier, version: config.SERVICE_VERSION })],
  drainMs: config.NODE_ENV === 'production' ? 5_000 : 0,
});
