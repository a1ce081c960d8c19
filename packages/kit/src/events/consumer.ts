// A service's durable consumer of domain events: pulls from the stream, restores each event's trace
// context, applies the event at most once (apply-once.ts), acknowledges it, retries a failing handler
// with growing delays, and parks the event in the service's dead-letter subject after `maxDeliver`
// failed attempts.
import { EventEnvelope } from '@engram/proto/events/v1/envelope';
import { type ConsumerMessages, type JsMsg, jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { SpanStatusCode, trace } from '@opentelemetry/api';
import type pg from 'pg';
import type { Logger } from '../logger.js';
import { consumerParked, consumerRedeliveries } from '../metrics.js';
import { applyOnce, type EventHandler, HandlerFailed } from './apply-once.js';
import { parkMessage } from './dead-letter.js';
import { ensureDurableConsumer } from './durable-consumer.js';
import { runInEventContext } from './event-span.js';
import { deadLetterSubject, eventSubject } from './stream.js';
import { createWakeSignal } from './wake-signal.js';

export type { EventHandler } from './apply-once.js';

export interface ConsumerOptions {
  nats: NatsConnection;
  /** A pool whose search_path is the service's schema (it holds processed_events). */
  pool: pg.Pool;
  streamName: string;
  subjectPrefix: string;
  service: string;
  /** With `service`, names the durable consumer `<service>-<purpose>`. */
  purpose: string;
  /** Event types to receive (`engram.identity.user.deleted`, wildcards allowed), without the prefix. */
  filterSubjects: string[];
  handle: EventHandler;
  logger: Logger;
  /** Failed attempts before the event is parked. */
  maxDeliver?: number;
  /** Delay before each retry, by attempt; the last value repeats. */
  backoffMs?: number[];
  /** How long JetStream waits for an ack before redelivering (the handler keeps it alive meanwhile). */
  ackWaitMs?: number;
  /** Messages pulled ahead of the one being handled. */
  prefetch?: number;
}

export interface EventConsumer {
  /** `<service>-<purpose>` */
  name: string;
  /** Finishes the event being handled, hands back the prefetched ones, and stops pulling. */
  stop(): Promise<void>;
}

const DEFAULT_BACKOFF_MS = [1_000, 5_000, 15_000, 30_000, 60_000, 120_000, 300_000];
const RESTART_DELAY_MS = 1_000;

function delayFor(attempt: number, backoffMs: number[]): number {
  return backoffMs[Math.min(attempt, backoffMs.length) - 1] ?? 1_000;
}

export async function startConsumer(options: ConsumerOptions): Promise<EventConsumer> {
  const { nats, pool, streamName, subjectPrefix, handle } = options;
  const name = `${options.service}-${options.purpose}`;
  const maxDeliver = options.maxDeliver ?? 10;
  const backoffMs = options.backoffMs ?? DEFAULT_BACKOFF_MS;
  const ackWaitMs = options.ackWaitMs ?? 30_000;
  const logger = options.logger.child({ consumer: name });
  const js = jetstream(nats);
  await ensureDurableConsumer(await jetstreamManager(nats), {
    streamName,
    name,
    filterSubjects: options.filterSubjects.map((type) => eventSubject(subjectPrefix, type)),
    ackWaitMs,
    maxAckPending: 1_000,
  });

  // After a lost connection an ack or nak cannot be sent; JetStream redelivers after ack_wait instead.
  function settle(msg: JsMsg, how: 'ack' | 'nak', delayMs?: number): void {
    try {
      if (how === 'ack') msg.ack();
      else msg.nak(delayMs);
    } catch (error) {
      logger.warn({ err: error, how }, 'could not settle an event; JetStream will redeliver it');
    }
  }

  async function park(msg: JsMsg, reason: string): Promise<void> {
    const parking = { deadLetterSubject: deadLetterSubject(subjectPrefix, options.service), consumer: name, reason };
    try {
      await parkMessage(js, msg, parking);
      consumerParked.inc({ consumer: name });
      logger.error({ subject: msg.subject, deliveries: msg.info.deliveryCount, reason }, 'event parked');
    } catch (error) {
      logger.warn({ err: error }, 'could not park an event; it will be redelivered');
      settle(msg, 'nak', delayFor(msg.info.deliveryCount, backoffMs));
    }
  }

  async function apply(msg: JsMsg, envelope: EventEnvelope): Promise<void> {
    const attempt = msg.info.deliveryCount;
    // Long handlers must not look abandoned to JetStream.
    const keepAlive = setInterval(
      () => {
        try {
          msg.working();
        } catch {
          // Connection lost: nothing to keep alive.
        }
      },
      Math.max(ackWaitMs / 2, 100),
    );
    try {
      const outcome = await applyOnce(pool, name, envelope, handle);
      settle(msg, 'ack');
      logger.debug({ eventId: envelope.id, type: envelope.type, outcome }, 'event processed');
    } catch (error) {
      trace.getActiveSpan()?.recordException(error as Error);
      trace.getActiveSpan()?.setStatus({ code: SpanStatusCode.ERROR });
      if (error instanceof HandlerFailed && attempt >= maxDeliver) return park(msg, error.message);
      const retryInMs = delayFor(attempt, backoffMs);
      logger.warn({ err: error, eventId: envelope.id, type: envelope.type, attempt, retryInMs }, 'event failed');
      settle(msg, 'nak', retryInMs);
    } finally {
      clearInterval(keepAlive);
    }
  }

  async function receive(msg: JsMsg): Promise<void> {
    if (msg.redelivered) consumerRedeliveries.inc({ consumer: name });
    let envelope: EventEnvelope;
    try {
      envelope = EventEnvelope.decode(msg.data);
    } catch (error) {
      // No retry can make bytes decodable.
      return park(msg, `undecodable envelope: ${(error as Error).message}`);
    }
    await runInEventContext(msg, envelope, name, () => apply(msg, envelope));
  }

  let stopping = false;
  let messages: ConsumerMessages | undefined;
  const pause = createWakeSignal();

  async function run(): Promise<void> {
    while (!stopping) {
      try {
        const consumer = await js.consumers.get(streamName, name);
        messages = await consumer.consume({ max_messages: options.prefetch ?? 10 });
        // close() only queues the end of the iteration (and resolves when it is reached), so never await it
        // before iterating.
        if (stopping) void messages.close();
        for await (const msg of messages) {
          // Prefetched but not started: hand it back so another replica can take it now.
          if (stopping) settle(msg, 'nak');
          else await receive(msg);
        }
      } catch (error) {
        if (!stopping) logger.warn({ err: error }, 'event consumer interrupted; restarting');
      }
      if (!stopping) await pause.pause(RESTART_DELAY_MS, false);
    }
  }

  const running = run();
  return {
    name,
    async stop() {
      stopping = true;
      pause.close();
      void messages?.close();
      await running;
    },
  };
}
