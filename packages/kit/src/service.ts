// The start-up and shutdown sequence every service shares (ARCHITECTURE.md, "Inside a service"):
// metrics/health port → gRPC server → health SERVING → shutdown hooks that undo it in reverse.
import type { ServiceDefinition } from '@grpc/grpc-js';
import { startGrpcServer } from './grpc/server.js';
import { startHealthServer } from './health.js';
import type { Logger } from './logger.js';
import { onShutdown } from './shutdown.js';
import type { Telemetry } from './telemetry.js';

export interface ServiceParts {
  name: string;
  logger: Logger;
  telemetry: Telemetry;
  grpcPort: number;
  metricsPort: number;
  services: { name: string; definition: ServiceDefinition; implementation: object }[];
  /** How long to keep answering after NOT_SERVING so load balancers stop sending calls first. */
  drainMs?: number;
  /** Closes the service's own resources (HTTP servers, relays, consumers, pools), in order, after gRPC stops. */
  close?: { name: string; run: () => Promise<unknown> | unknown }[];
}

export async function runService(parts: ServiceParts) {
  const health = await startHealthServer(parts.metricsPort);
  const grpc = await startGrpcServer({ port: parts.grpcPort, services: parts.services, logger: parts.logger });
  health.setReady(true);
  parts.logger.info({ grpcPort: grpc.port, metricsPort: health.port }, `${parts.name} ready`);
  onShutdown(parts.logger, [
    { name: 'not ready', run: () => health.setReady(false) },
    { name: 'grpc', run: () => grpc.shutdown(parts.drainMs ?? 0) },
    ...(parts.close ?? []),
    { name: 'telemetry', run: () => parts.telemetry.shutdown() },
    { name: 'health', run: () => health.close() },
  ]);
  return { grpc, health };
}
