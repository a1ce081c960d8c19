// What a service does with events at start-up: make sure the stream exists (idempotent, every replica).
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { ensureStream, streamSubjects } from './stream.js';

export interface EventsSettings {
  /** EVENTS_STREAM: ENGRAM in production. */
  streamName: string;
  /** EVENTS_SUBJECT_PREFIX: empty in production; tests isolate runs with it. */
  subjectPrefix: string;
}

export async function ensureEventStream(nats: NatsConnection, settings: EventsSettings): Promise<void> {
  await ensureStream(await jetstreamManager(nats), {
    name: settings.streamName,
    subjects: streamSubjects(settings.subjectPrefix),
  });
}
