// Parking a message a consumer gave up on: a copy goes to the service's dead-letter subject (in the same
// stream, so it is kept and can be inspected or replayed), then the original is terminated so JetStream
// stops redelivering it.
import type { JetStreamClient, JsMsg } from '@nats-io/jetstream';
import { headers as natsHeaders } from '@nats-io/transport-node';

export const DEAD_LETTER_HEADERS = {
  error: 'Engram-Error',
  consumer: 'Engram-Consumer',
  subject: 'Engram-Subject',
  deliveries: 'Engram-Deliveries',
} as const;

export interface ParkOptions {
  deadLetterSubject: string;
  consumer: string;
  reason: string;
}

/** Header values cannot hold line breaks, and a stack trace belongs in the logs, not the message. */
function headerValue(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').slice(0, 512);
}

export async function parkMessage(js: JetStreamClient, msg: JsMsg, options: ParkOptions): Promise<void> {
  const headers = natsHeaders();
  for (const [key, values] of msg.headers ?? []) {
    // The original Nats-Msg-Id would make the copy a duplicate of the event in the same stream.
    if (key.toLowerCase().startsWith('nats-')) continue;
    for (const value of values) headers.append(key, value);
  }
  const reason = headerValue(options.reason);
  headers.set(DEAD_LETTER_HEADERS.error, reason);
  headers.set(DEAD_LETTER_HEADERS.consumer, options.consumer);
  headers.set(DEAD_LETTER_HEADERS.subject, msg.subject);
  headers.set(DEAD_LETTER_HEADERS.deliveries, String(msg.info.deliveryCount));
  await js.publish(options.deadLetterSubject, msg.data, {
    headers,
    msgID: `${options.consumer}:${msg.info.streamSequence}`,
  });
  // No reason argument: servers before 2.10 do not recognise "+TERM <reason>" and keep the message pending.
  msg.term();
}
