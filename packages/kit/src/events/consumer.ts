// A service's durable consumer of domain events: pulls from the stream, restores each event's trace
// context, applies the event at most once (apply-once.ts), acknowledges it, retries a failing handler
// with growing delays, and parks the event in the service's dead-letter subject after `maxDeliver`
// failed attempts. When JetStream reports the consumer or the stream missing (deleted while running),
// it creates them again and carries on.
import { EventEnvelope } from '@engram/proto/events/v1/envelope';
import {
  type ConsumerMessages,
  JetStreamApiCodes,
  JetStreamApiError,
  type JsMsg,
  jetstream,
  jetstreamManager,
} from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { SpanStatusCode, trace } from '@opentelemetry/api';
import type pg from 'pg';
import type { Logger } from '../logger.js';
import { consumerParked, consumerRedeliveries } from '../metrics.js';
import { applyOnce, type EventTransactions, HandlerFailed, pgTransactions } from './apply-once.js';
import { parkMessage } from './dead-letter.js';
import { consumerFilter, ensureDurableConsumer } from './durable-consumer.js';
import { runInEventContext } from './event-span.js';
import { deadLetterSubject, eventSubject } from './stream.js';
import { dispatch, type Subscription } from './subscriptions.js';
import { createWakeSignal } from './wake-signal.js';

export type { EventHandler } from './apply-once.js';

export interface ConsumerOptions<Tx> {
  nats: NatsConnection;
  /** Transactions in the service's schema (which holds processed_events): `prismaTransactions(prisma)`. */
  transactions?: EventTransactions<Tx>;
  /** Instead of `transactions`: a pool whose search_path is the service's schema (handlers get a pg client). */
  pool?: pg.Pool;
  streamName: string;
  subjectPrefix: string;
  service: string;
  /** With `service`, names the durable consumer `<service>-<purpose>`. */
  purpose: string;
  /** The events to receive, one handler each: `[on(UserDeleted, async (payload, { tx }) => ...)]`. */
  subscriptions: Subscription<Tx>[];
  /** Creates the stream again when JetStream reports it missing. */
  ensureStream?: () => Promise<unknown>;
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
const PULL_EXPIRES_MS = 5_000;
const GONE = new Set(['consumer_deleted', 'consumer_not_found', 'stream_not_found']);

function delayFor(attempt: number, backoffMs: number[]): number {
  return backoffMs[Math.min(attempt, backoffMs.length) - 1] ?? 1_000;
}

function transactionsOf<Tx>(options: ConsumerOptions<Tx>): EventTransactions<Tx> {
  if (options.transactions) return options.transactions;
  if (options.pool) return pgTransactions(options.pool) as unknown as EventTransactions<Tx>;
  throw new Error('a consumer needs `transactions` or a `pool`');
}

export async function startConsumer<Tx = pg.PoolClient>(options: ConsumerOptions<Tx>): Promise<EventConsumer> {
  const { nats, streamName, subjectPrefix } = options;
  const { types, handle, wants } = dispatch(options.subscriptions);
  const transactions = transactionsOf(options);
  const name = `${options.service}-${options.purpose}`;
  const maxDeliver = options.maxDeliver ?? 10;
  const backoffMs = options.backoffMs ?? DEFAULT_BACKOFF_MS;
  const ackWaitMs = options.ackWaitMs ?? 30_000;
  const logger = options.logger.child({ consumer: name });
  const js = jetstream(nats);
  const jsm = await jetstreamManager(nats);
  const ensure = () =>
    ensureDurableConsumer(jsm, {
      streamName,
      name,
      filterSubjects: consumerFilter(types.map((type) => eventSubject(subjectPrefix, type))),
      ackWaitMs,
      maxAckPending: 1_000,
    });
  await ensure();

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
      const outcome = await applyOnce(transactions as EventTransactions<never>, name, envelope, handle);
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
    // Not this consumer's: another event of the aggregate (a wildcard filter, consumerFilter), or one its
    // subscription's `when` refuses. Acknowledged without a transaction.
    let wanted: boolean;
    try {
      wanted = wants(envelope);
    } catch (error) {
      return park(msg, `undecodable payload: ${(error as Error).message}`);
    }
    if (!wanted) return settle(msg, 'ack');
    await runInEventContext(msg, envelope, name, () => apply(msg, envelope));
  }

  let stopping = false;
  let messages: ConsumerMessages | undefined;
  const pause = createWakeSignal();

  /** Creates the stream (when it is gone and we may) and the consumer again. */
  async function recreate(): Promise<void> {
    try {
      await ensure();
    } catch (error) {
      if (!(error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound)) throw error;
      if (!options.ensureStream) throw error;
      logger.warn('the events stream is missing; creating it again');
      await options.ensureStream();
      await ensure();
    }
  }

  /**
   * JetStream tells a pulling client at once when its consumer or stream is deleted; ending the iteration
   * then (instead of waiting for missed heartbeats) lets run() create them again.
   */
  function watchForDeletion(iterator: ConsumerMessages): void {
    void (async () => {
      for await (const status of iterator.status()) {
        if (GONE.has(status.type)) {
          logger.warn({ status: status.type }, 'the consumer is gone; creating it again');
          void iterator.close();
          return;
        }
      }
    })().catch(() => undefined);
  }

  async function run(): Promise<void> {
    let missing = false;
    while (!stopping) {
      try {
        if (missing) {
          await recreate();
          logger.warn('the consumer was missing and has been created again');
          missing = false;
        }
        const consumer = await js.consumers.get(streamName, name);
        // Missing resources end the iteration (instead of waiting for them for ever), so they are recreated.
        messages = await consumer.consume({
          max_messages: options.prefetch ?? 10,
          // Short pulls, so missed heartbeats reveal a deleted consumer within seconds (JetStream does not
          // always tell a waiting pull that its consumer is gone).
          expires: PULL_EXPIRES_MS,
          abort_on_missing_resource: true,
        });
        watchForDeletion(messages);
        // close() only queues the end of the iteration (and resolves when it is reached), so never await it
        // before iterating.
        if (stopping) void messages.close();
        for await (const msg of messages) {
          // Prefetched but not started: hand it back so another replica can take it now.
          if (stopping) settle(msg, 'nak');
          else await receive(msg);
        }
        // The iteration ended without stop(): the consumer or the stream was deleted.
        if (!stopping) missing = true;
      } catch (error) {
        if (!stopping) logger.warn({ err: error }, 'event consumer interrupted; restarting');
        missing = true;
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
