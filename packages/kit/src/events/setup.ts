// What a service needs to take part in events: its variables, and a stream that exists (created
// idempotently by every replica once NATS is reachable, and again whenever JetStream reports it missing).
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { z } from 'zod';
import { vars } from '../config.js';
import type { Logger } from '../logger.js';
import { ensureStream, PRODUCTION_STREAM_NAME, type StreamLimits, streamSubjects } from './stream.js';

const HOUR_MS = 3_600_000;

/** The variables of a service that publishes or consumes events. */
export const eventVars = {
  NATS_URL: vars.url(['nats']),
  /** ENGRAM in production; tests give every run its own stream. */
  EVENTS_STREAM: z.string().default(PRODUCTION_STREAM_NAME),
  /** Empty in production; tests isolate runs with a prefix on every subject. */
  EVENTS_SUBJECT_PREFIX: z.string().default(''),
  /** How long the stream keeps an event (and consumers remember applying it); 0 keeps events for ever. */
  EVENTS_STREAM_MAX_AGE_HOURS: z.coerce.number({ error: 'must be a number of hours' }).min(0).default(720),
  /** The stream's size limit in bytes; -1 is unlimited. */
  EVENTS_STREAM_MAX_BYTES: z.coerce.number({ error: 'must be a number of bytes' }).int().min(-1).default(-1),
  /** Copies of the stream in the JetStream cluster: 1 on a single server, 3 in production. */
  EVENTS_STREAM_REPLICAS: z.coerce.number({ error: 'must be 1 to 5' }).int().min(1).max(5).default(1),
  /** Overwrite an existing stream's limits with the three above (otherwise a difference is only logged). */
  EVENTS_STREAM_ENFORCE_LIMITS: vars.bool.default(false),
};

export type EventsConfig = z.infer<z.ZodObject<typeof eventVars>>;

export interface EventsSettings {
  /** EVENTS_STREAM: ENGRAM in production. */
  streamName: string;
  /** EVENTS_SUBJECT_PREFIX: empty in production; tests isolate runs with it. */
  subjectPrefix: string;
  limits?: Partial<StreamLimits>;
  enforceLimits?: boolean;
}

export function eventsSettings(config: EventsConfig): EventsSettings {
  return {
    streamName: config.EVENTS_STREAM,
    subjectPrefix: config.EVENTS_SUBJECT_PREFIX,
    limits: {
      maxAgeMs: config.EVENTS_STREAM_MAX_AGE_HOURS * HOUR_MS,
      maxBytes: config.EVENTS_STREAM_MAX_BYTES,
      replicas: config.EVENTS_STREAM_REPLICAS,
    },
    enforceLimits: config.EVENTS_STREAM_ENFORCE_LIMITS,
  };
}

/** Ensures the stream and returns how long it keeps events (ms; 0 for ever), as the server has it. */
export async function ensureEventStream(
  nats: NatsConnection,
  settings: EventsSettings,
  logger?: Logger,
): Promise<{ maxAgeMs: number }> {
  const info = await ensureStream(await jetstreamManager(nats), {
    name: settings.streamName,
    subjects: streamSubjects(settings.subjectPrefix),
    ...(settings.limits && { limits: settings.limits }),
    enforceLimits: settings.enforceLimits ?? false,
    onLimitsDiffer: (difference) =>
      logger?.warn(
        { stream: settings.streamName, difference },
        'the stream has other limits than configured; keeping them (EVENTS_STREAM_ENFORCE_LIMITS=true overwrites)',
      ),
  });
  return { maxAgeMs: Math.round(info.config.max_age / 1_000_000) };
}
