// The one JetStream stream of domain events and the subjects in it. Production uses stream ENGRAM and
// bare subjects; tests give every run its own stream and subject prefix so runs never share messages.
import {
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamManager,
  RetentionPolicy,
  StorageType,
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

export interface StreamOptions {
  name: string;
  subjects: string[];
  /** How long JetStream remembers a Nats-Msg-Id to drop a republished duplicate. */
  duplicateWindowMs?: number;
  /** Drop events older than this; 0 keeps them until other limits apply. */
  maxAgeMs?: number;
}

// Not in JetStreamApiCodes: "stream name already in use with a different configuration".
const STREAM_NAME_IN_USE = 10058;

function isApiError(error: unknown, code: number): boolean {
  return error instanceof JetStreamApiError && error.code === code;
}

/**
 * Creates the stream, or brings an existing one's subjects and limits up to date. Safe to call from every
 * replica at start-up. Storage and retention cannot change on an existing stream, so they are only set
 * on creation.
 */
export async function ensureStream(jsm: JetStreamManager, options: StreamOptions): Promise<StreamInfo> {
  const settings = {
    subjects: options.subjects,
    duplicate_window: nanos(options.duplicateWindowMs ?? 5 * 60_000),
    max_age: nanos(options.maxAgeMs ?? 0),
  };
  try {
    const existing = await jsm.streams.info(options.name);
    return await jsm.streams.update(options.name, { ...existing.config, ...settings });
  } catch (error) {
    if (!isApiError(error, JetStreamApiCodes.StreamNotFound)) throw error;
  }
  try {
    return await jsm.streams.add({
      name: options.name,
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
      ...settings,
    });
  } catch (error) {
    // Another replica created it between our lookup and our add; one more pass updates it.
    if (!isApiError(error, STREAM_NAME_IN_USE)) throw error;
    const existing = await jsm.streams.info(options.name);
    return jsm.streams.update(options.name, { ...existing.config, ...settings });
  }
}
