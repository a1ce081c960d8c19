// JetStream for tests: reading what a stream holds, and removing a run's streams (every stream whose name
// starts with the run's stream name) so runs leave nothing behind on a shared NATS server, and putting an
// event on a run's stream as if a service had published it.
import { randomUUID } from 'node:crypto';
import { eventSubject } from '@engram/kit/events/stream';
import { Actor_Kind, EventEnvelope } from '@engram/proto/events/v1/envelope';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';

export async function deleteStreams(natsUrl: string, namePrefix: string): Promise<string[]> {
  const { hostname, port } = new URL(natsUrl);
  const nc = await connect({ servers: `${hostname}:${port || 4222}`, timeout: 5_000 });
  try {
    const jsm = await jetstreamManager(nc);
    const deleted: string[] = [];
    for await (const stream of jsm.streams.list()) {
      if (!stream.config.name.startsWith(namePrefix)) continue;
      await jsm.streams.delete(stream.config.name);
      deleted.push(stream.config.name);
    }
    return deleted;
  } finally {
    await nc.close();
  }
}

/** The newest message stored on `subject` in `stream`, with its headers (e.g. traceparent). */
export async function lastMessage(
  natsUrl: string,
  stream: string,
  subject: string,
): Promise<{ data: Uint8Array; headers: Record<string, string> } | undefined> {
  const { hostname, port } = new URL(natsUrl);
  const nc = await connect({ servers: `${hostname}:${port || 4222}`, timeout: 5_000 });
  try {
    const jsm = await jetstreamManager(nc);
    const message = await jsm.streams.getMessage(stream, { last_by_subj: subject }).catch(() => null);
    if (!message) return undefined;
    const headers: Record<string, string> = {};
    for (const [key, values] of message.header ?? []) headers[key] = values[0] ?? '';
    return { data: message.data, headers };
  } finally {
    await nc.close();
  }
}

/** A catalogue entry as @engram/contracts/events defines it: the subject and the payload's codec. */
interface PublishableEvent<T> {
  subject: string;
  message: { encode(message: T): { finish(): Uint8Array } };
}

/**
 * Publishes `payload` as a new event (a fresh id, now, the system as actor) on the stream of the run
 * whose subjects start with `subjectPrefix`, as a relay would; returns the event's id.
 */
export async function publishEvent<T>(
  natsUrl: string,
  subjectPrefix: string,
  event: PublishableEvent<T>,
  payload: T,
): Promise<string> {
  const { hostname, port } = new URL(natsUrl);
  const nc = await connect({ servers: `${hostname}:${port || 4222}`, timeout: 5_000 });
  try {
    const id = randomUUID();
    const envelope = EventEnvelope.encode({
      id,
      type: event.subject,
      occurredAt: new Date(),
      actor: { kind: Actor_Kind.KIND_SYSTEM, id: 'test' },
      payload: Buffer.from(event.message.encode(payload).finish()),
    }).finish();
    await jetstream(nc).publish(eventSubject(subjectPrefix, event.subject), envelope, { msgID: id });
    return id;
  } finally {
    await nc.close();
  }
}
