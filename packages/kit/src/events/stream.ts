// The one JetStream stream of domain events and the subjects in it. Production uses stream ENGRAM and
// bare subjects; tests give every run its own stream and subject prefix so runs never share messages.
import {
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamManager,
  RetentionPolicy,
  StorageType,
  type StreamConfig,
  type StreamInfo,
} from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';

export const PRODUCTION_STREAM_NAME = 'ENGRAM';

/** The NATS subject an event of `type` is published on. */
export function eventSubject(subjectPrefix: string, type: string): string {
  return `${subjectPrefix}${type}`;
}

/** Where a service's consumers park events they could not process. */
export function deadLetterSubject(subjectPrefix: string, service: string): string {
  return `${subjectPrefix}engram.dlq.${service}`;
}

/** The subjects the stream captures: every event and every dead letter. */
export function streamSubjects(subjectPrefix: string): string[] {
  return [`${subjectPrefix}engram.>`];
}

export interface StreamLimits {
  /** Drop events older than this; 0 keeps them until another limit applies. */
  maxAgeMs: number;
  /** Drop the oldest events beyond this size; -1 is unlimited. */
  maxBytes: number;
  /** Copies of the stream in a JetStream cluster (1 on a single server). */
  replicas: number;
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = { maxAgeMs: 0, maxBytes: -1, replicas: 1 };

export interface StreamOptions {
  name: string;
  subjects: string[];
  /** How long JetStream remembers a Nats-Msg-Id to drop a republished duplicate. */
  duplicateWindowMs?: number;
  /** Applied when the stream is created; on an existing stream only with `enforceLimits`. */
  limits?: Partial<StreamLimits>;
  /**
   * Overwrite an existing stream's limits with `limits`. Off by default: an operator may have changed
   * them on purpose, so a difference is only reported through `onLimitsDiffer`.
   */
  enforceLimits?: boolean;
  onLimitsDiffer?: (difference: Record<string, { configured: number; actual: number }>) => void;
}

// Not in JetStreamApiCodes: "stream name already in use with a different configuration".
const STREAM_NAME_IN_USE = 10058;

function isApiError(error: unknown, code: number): boolean {
  return error instanceof JetStreamApiError && error.code === code;
}

function limitsConfig(limits: StreamLimits) {
  return { max_age: nanos(limits.maxAgeMs), max_bytes: limits.maxBytes, num_replicas: limits.replicas };
}

function limitsDifference(config: StreamConfig, limits: StreamLimits) {
  const wanted = limitsConfig(limits);
  const difference: Record<string, { configured: number; actual: number }> = {};
  for (const key of ['max_age', 'max_bytes', 'num_replicas'] as const) {
    if (config[key] !== wanted[key]) difference[key] = { configured: wanted[key], actual: config[key] };
  }
  return difference;
}

/**
 * Creates the stream, or brings an existing one's subjects up to date. Safe to call from every replica at
 * start-up and again whenever JetStream reports the stream missing. Storage and retention cannot change
 * on an existing stream, so they are only set on creation; so are the limits, unless `enforceLimits`.
 */
export async function ensureStream(jsm: JetStreamManager, options: StreamOptions): Promise<StreamInfo> {
  const limits = { ...DEFAULT_STREAM_LIMITS, ...options.limits };
  const settings = {
    subjects: options.subjects,
    duplicate_window: nanos(options.duplicateWindowMs ?? 5 * 60_000),
  };
  const update = async (existing: StreamInfo) => {
    const difference = limitsDifference(existing.config, limits);
    const enforce = options.enforceLimits === true && Object.keys(difference).length > 0;
    if (!enforce && Object.keys(difference).length > 0) options.onLimitsDiffer?.(difference);
    const config = { ...existing.config, ...settings, ...(enforce ? limitsConfig(limits) : {}) };
    const unchanged =
      !enforce &&
      config.duplicate_window === existing.config.duplicate_window &&
      JSON.stringify(config.subjects) === JSON.stringify(existing.config.subjects);
    return unchanged ? existing : jsm.streams.update(options.name, config);
  };
  try {
    return await update(await jsm.streams.info(options.name));
  } catch (error) {
    if (!isApiError(error, JetStreamApiCodes.StreamNotFound)) throw error;
  }
  try {
    return await jsm.streams.add({
      name: options.name,
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
      ...settings,
      ...limitsConfig(limits),
    });
  } catch (error) {
    // Another replica created it between our lookup and our add; one more pass updates it.
    if (!isApiError(error, STREAM_NAME_IN_USE)) throw error;
    return update(await jsm.streams.info(options.name));
  }
}
