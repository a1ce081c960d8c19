// What a service needs to take part in events: its variables, and at start-up a stream that exists
// (created or updated idempotently, by every replica).
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { z } from 'zod';
import { vars } from '../config.js';
import { ensureStream, streamSubjects } from './stream.js';

/** The variables of a service that publishes or consumes events. */
export const eventVars = {
  NATS_URL: vars.url(['nats']),
  /** ENGRAM in production; tests give every run its own stream. */
  EVENTS_STREAM: z.string().default('ENGRAM'),
  /** Empty in production; tests isolate runs with a prefix on every subject. */
  EVENTS_SUBJECT_PREFIX: z.string().default(''),
};

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
