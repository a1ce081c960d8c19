// What every service shares (docs/architecture.md#boot-and-shutdown): its common variables, the runtime
// made from them (telemetry, logger, token verifier), and the start-up and shutdown sequence:
// events and jobs (in the background) → metrics/health port → warm-up → gRPC server → health SERVING → shutdown hooks
// that undo it in reverse (gRPC, then the job workers, then consumers, relay, NATS and the events pool, then
// the service's own).
import type { ServiceDefinition } from '@grpc/grpc-js';
import { z } from 'zod';
import { commonVars, vars } from './config.js';
import { type EventsDeclaration, type ServiceEvents, startServiceEvents } from './events/runtime.js';
import { type EventsConfig, eventsSettings } from './events/setup.js';
import { type ServerOptions, startGrpcServer } from './grpc/server.js';
import { startHealthServer } from './health.js';
import { createInternalTokenVerifier, DEFAULT_CLOCK_SKEW_SECONDS } from './internal-auth.js';
import { type JobQueueDeclaration, type ServiceJobs, serviceJobs } from './jobs/service-jobs.js';
import { workQueueSettings } from './jobs/work-queue.js';
import { createLogger, type Logger } from './logger.js';
import { onShutdown } from './shutdown.js';
import { startTelemetry, type Telemetry } from './telemetry.js';

/** The variables of every gRPC service, with its default ports. */
export function serviceVars(ports: { grpc: number; metrics: number }) {
  return {
    ...commonVars,
    INTERNAL_TOKEN_PUBLIC_KEYS: z.string().min(1),
    /** How far the gateway's clock may be from this service's when it checks an internal token. */
    INTERNAL_TOKEN_CLOCK_SKEW_SECONDS: z.coerce
      .number({ error: 'must be a number of seconds' })
      .min(0, { error: 'must be a number of seconds' })
      .max(60, { error: 'must be at most 60 seconds' })
      .default(DEFAULT_CLOCK_SKEW_SECONDS),
    GRPC_PORT: vars.port(ports.grpc),
    METRICS_PORT: vars.port(ports.metrics),
  };
}

export type ServiceConfig = z.infer<z.ZodObject<ReturnType<typeof serviceVars>>>;

export interface ServiceRuntime {
  name: string;
  config: ServiceConfig;
  telemetry: Telemetry;
  logger: Logger;
  /** What `implement` needs: the service name, its logger and the internal-token verifier. */
  serverOptions: ServerOptions;
}

/** Telemetry first (so logs carry trace ids), then the logger and the internal-token verifier. */
export function serviceRuntime(name: string, config: ServiceConfig): ServiceRuntime {
  const telemetry = startTelemetry({ service: name, otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT });
  const logger = createLogger({ service: name, level: config.LOG_LEVEL });
  const verifier = createInternalTokenVerifier(config.INTERNAL_TOKEN_PUBLIC_KEYS, name, {
    clockSkewSeconds: config.INTERNAL_TOKEN_CLOCK_SKEW_SECONDS,
  });
  return { name, config, telemetry, logger, serverOptions: { service: name, logger, verifier } };
}

export interface ServiceParts<Tx = unknown> {
  services: { name: string; definition: ServiceDefinition; implementation: object }[];
  /**
   * The events the service takes part in: `{ relay: true, consumers: [...] }`. Its config must hold
   * DATABASE_URL and the variables of `eventVars` (@engram/kit/events/setup).
   */
  events?: EventsDeclaration<Tx>;
  /** The service's background jobs (`jobsOf(runtime, [...])`): started beside events, stopped after gRPC. */
  jobs?: ServiceJobs;
  /**
   * Run before the gRPC server serves: opens what a new replica's first calls would otherwise wait for (its
   * database connections, `warmDatabase`), so that a rolling update's new replica answers the share of calls it
   * gets at once as fast as the old one did. One that fails or takes longer than WARM_UP_TIMEOUT_MS is logged and
   * the service starts anyway: a warm-up only saves time, and the calls open what they need themselves.
   */
  warmUp?: () => Promise<unknown>;
  /** Closes the service's own resources (HTTP servers, relays, consumers, pools), in order, after gRPC stops. */
  close?: { name: string; run: () => Promise<unknown> | unknown }[];
}

/** In production, how long to keep answering after NOT_SERVING so load balancers stop sending calls first. */
export const PRODUCTION_DRAIN_MS = 5_000;

/** The longest a service's warm-up holds back its start. */
export const WARM_UP_TIMEOUT_MS = 10_000;

/** Runs a warm-up within `timeoutMs`; answers how it went, having logged a warning if it did not finish. */
export async function warmUp(
  run: () => Promise<unknown>,
  logger: Logger,
  timeoutMs = WARM_UP_TIMEOUT_MS,
): Promise<'warm' | 'failed' | 'timed out'> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timed out'>((resolve) => {
    timer = setTimeout(() => resolve('timed out'), timeoutMs);
  });
  const outcome = await Promise.race([
    run().then(
      () => 'warm' as const,
      (error: unknown) => {
        logger.warn({ err: error }, 'warm-up failed; starting without it');
        return 'failed' as const;
      },
    ),
    timedOut,
  ]);
  clearTimeout(timer);
  if (outcome === 'timed out') logger.warn({ timeoutMs }, 'warm-up took too long; starting without it');
  return outcome;
}

function startEventsOf<Tx>(runtime: ServiceRuntime, events: EventsDeclaration<Tx>): ServiceEvents {
  const config = runtime.config as ServiceConfig & Partial<EventsConfig> & { DATABASE_URL?: string };
  if (!config.DATABASE_URL || !config.NATS_URL) {
    throw new Error(`${runtime.name} declares events but its config has no DATABASE_URL or NATS_URL (add eventVars)`);
  }
  return startServiceEvents({
    ...events,
    service: runtime.name,
    databaseUrl: config.DATABASE_URL,
    natsUrl: config.NATS_URL,
    settings: eventsSettings(config as EventsConfig),
    logger: runtime.logger,
  });
}

/**
 * The background jobs of a service whose config holds the variables of `eventVars` (jobs travel on a stream
 * beside its events): pass the result's `enqueue` to the handlers that start jobs, and the result to runService.
 */
export function jobsOf(runtime: ServiceRuntime, queues: JobQueueDeclaration[]): ServiceJobs {
  const config = runtime.config as ServiceConfig & Partial<EventsConfig>;
  if (!config.NATS_URL) throw new Error(`${runtime.name} declares jobs but its config has no NATS_URL (add eventVars)`);
  return serviceJobs({
    service: runtime.name,
    natsUrl: config.NATS_URL,
    settings: workQueueSettings(eventsSettings(config as EventsConfig)),
    logger: runtime.logger,
    queues,
  });
}

export async function runService<Tx>(runtime: ServiceRuntime, parts: ServiceParts<Tx>) {
  const { config, logger } = runtime;
  const events = parts.events && startEventsOf(runtime, parts.events);
  parts.jobs?.start();
  const health = await startHealthServer(config.METRICS_PORT);
  if (parts.warmUp) await warmUp(parts.warmUp, logger);
  const grpc = await startGrpcServer({ port: config.GRPC_PORT, services: parts.services, logger });
  health.setReady(true);
  logger.info({ grpcPort: grpc.port, metricsPort: health.port }, `${runtime.name} ready`);
  const drainMs = config.NODE_ENV === 'production' ? PRODUCTION_DRAIN_MS : 0;
  onShutdown(logger, [
    { name: 'not ready', run: () => health.setReady(false) },
    { name: 'grpc', run: () => grpc.shutdown(drainMs) },
    ...(parts.jobs ? [{ name: 'jobs', run: () => parts.jobs?.stop() }] : []),
    ...(events ? [{ name: 'events', run: () => events.stop() }] : []),
    ...(parts.close ?? []),
    { name: 'telemetry', run: () => runtime.telemetry.shutdown() },
    { name: 'health', run: () => health.close() },
  ]);
  return { grpc, health, events };
}
