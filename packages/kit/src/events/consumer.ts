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
  type JetStreamClient,
  type JetStreamManager,
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

/** One running durable consumer (startConsumer starts it): see the header for what it does with each event. */
class DurableEventConsumer<Tx> implements EventConsumer {
  /** `<service>-<purpose>` */
  readonly name: string;
  private readonly options: ConsumerOptions<Tx>;
  private readonly events: ReturnType<typeof dispatch<Tx>>;
  private readonly transactions: EventTransactions<Tx>;
  private readonly maxDeliver: number;
  private readonly backoffMs: number[];
  private readonly ackWaitMs: number;
  private readonly logger: Logger;
  private readonly js: JetStreamClient;
  private readonly jsm: JetStreamManager;
  private stopping = false;
  private messages: ConsumerMessages | undefined;
  private readonly pause = createWakeSignal();
  private running: Promise<void> | undefined;

  constructor(
    options: ConsumerOptions<Tx>,
    events: ReturnType<typeof dispatch<Tx>>,
    transactions: EventTransactions<Tx>,
    jsm: JetStreamManager,
  ) {
    this.options = options;
    this.events = events;
    this.transactions = transactions;
    this.name = `${options.service}-${options.purpose}`;
    this.maxDeliver = options.maxDeliver ?? 10;
    this.backoffMs = options.backoffMs ?? DEFAULT_BACKOFF_MS;
    this.ackWaitMs = options.ackWaitMs ?? 30_000;
    this.logger = options.logger.child({ consumer: this.name });
    this.js = jetstream(options.nats);
    this.jsm = jsm;
  }

  /** Creates the durable consumer (or finds it as it is), then pulls until stop(). */
  async start(): Promise<void> {
    await this.ensure();
    this.running = this.run();
  }

  /** Finishes the event being handled, hands back the prefetched ones, and stops pulling. */
  readonly stop = async (): Promise<void> => {
    this.stopping = true;
    this.pause.close();
    void this.messages?.close();
    await this.running;
  };

  private ensure() {
    return ensureDurableConsumer(this.jsm, {
      streamName: this.options.streamName,
      name: this.name,
      filterSubjects: consumerFilter(this.events.types.map((type) => eventSubject(this.options.subjectPrefix, type))),
      ackWaitMs: this.ackWaitMs,
      maxAckPending: 1_000,
    });
  }

  // After a lost connection an ack or nak cannot be sent; JetStream redelivers after ack_wait instead.
  private settle(msg: JsMsg, how: 'ack' | 'nak', delayMs?: number): void {
    try {
      if (how === 'ack') msg.ack();
      else msg.nak(delayMs);
    } catch (error) {
      this.logger.warn({ err: error, how }, 'could not settle an event; JetStream will redeliver it');
    }
  }

  private async park(msg: JsMsg, reason: string): Promise<void> {
    const { subjectPrefix, service } = this.options;
    const parking = { deadLetterSubject: deadLetterSubject(subjectPrefix, service), consumer: this.name, reason };
    try {
      await parkMessage(this.js, msg, parking);
      consumerParked.inc({ consumer: this.name });
      this.logger.error({ subject: msg.subject, deliveries: msg.info.deliveryCount, reason }, 'event parked');
    } catch (error) {
      this.logger.warn({ err: error }, 'could not park an event; it will be redelivered');
      this.settle(msg, 'nak', delayFor(msg.info.deliveryCount, this.backoffMs));
    }
  }

  private async apply(msg: JsMsg, envelope: EventEnvelope): Promise<void> {
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
      Math.max(this.ackWaitMs / 2, 100),
    );
    try {
      const transactions = this.transactions as EventTransactions<never>;
      const outcome = await applyOnce(transactions, this.name, envelope, this.events.handle);
      this.settle(msg, 'ack');
      this.logger.debug({ eventId: envelope.id, type: envelope.type, outcome }, 'event processed');
    } catch (error) {
      trace.getActiveSpan()?.recordException(error as Error);
      trace.getActiveSpan()?.setStatus({ code: SpanStatusCode.ERROR });
      if (error instanceof HandlerFailed && attempt >= this.maxDeliver) return this.park(msg, error.message);
      const retryInMs = delayFor(attempt, this.backoffMs);
      this.logger.warn({ err: error, eventId: envelope.id, type: envelope.type, attempt, retryInMs }, 'event failed');
      this.settle(msg, 'nak', retryInMs);
    } finally {
      clearInterval(keepAlive);
    }
  }

  private async receive(msg: JsMsg): Promise<void> {
    if (msg.redelivered) consumerRedeliveries.inc({ consumer: this.name });
    let envelope: EventEnvelope;
    try {
      envelope = EventEnvelope.decode(msg.data);
    } catch (error) {
      // No retry can make bytes decodable.
      return this.park(msg, `undecodable envelope: ${(error as Error).message}`);
    }
    // Not this consumer's: another event of the aggregate (a wildcard filter, consumerFilter), or one its
    // subscription's `when` refuses. Acknowledged without a transaction.
    let wanted: boolean;
    try {
      wanted = this.events.wants(envelope);
    } catch (error) {
      return this.park(msg, `undecodable payload: ${(error as Error).message}`);
    }
    if (!wanted) return this.settle(msg, 'ack');
    await runInEventContext(msg, envelope, this.name, () => this.apply(msg, envelope));
  }

  /** Creates the stream (when it is gone and we may) and the consumer again. */
  private async recreate(): Promise<void> {
    try {
      await this.ensure();
    } catch (error) {
      if (!(error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound)) throw error;
      if (!this.options.ensureStream) throw error;
      this.logger.warn('the events stream is missing; creating it again');
      await this.options.ensureStream();
      await this.ensure();
    }
  }

  /**
   * JetStream tells a pulling client at once when its consumer or stream is deleted; ending the iteration
   * then (instead of waiting for missed heartbeats) lets run() create them again.
   */
  private watchForDeletion(iterator: ConsumerMessages): void {
    void (async () => {
      for await (const status of iterator.status()) {
        if (GONE.has(status.type)) {
          this.logger.warn({ status: status.type }, 'the consumer is gone; creating it again');
          void iterator.close();
          return;
        }
      }
    })().catch(() => undefined);
  }

  private async run(): Promise<void> {
    let missing = false;
    while (!this.stopping) {
      try {
        if (missing) {
          await this.recreate();
          this.logger.warn('the consumer was missing and has been created again');
          missing = false;
        }
        await this.consumeUntilEnded();
        // The iteration ended without stop(): the consumer or the stream was deleted.
        if (!this.stopping) missing = true;
      } catch (error) {
        if (!this.stopping) this.logger.warn({ err: error }, 'event consumer interrupted; restarting');
        missing = true;
      }
      if (!this.stopping) await this.pause.pause(RESTART_DELAY_MS, false);
    }
  }

  /** Pulls and handles events until the iteration ends: on stop(), or with the consumer or the stream gone. */
  private async consumeUntilEnded(): Promise<void> {
    const consumer = await this.js.consumers.get(this.options.streamName, this.name);
    // Missing resources end the iteration (instead of waiting for them for ever), so they are recreated.
    const messages = await consumer.consume({
      max_messages: this.options.prefetch ?? 10,
      // Short pulls, so missed heartbeats reveal a deleted consumer within seconds (JetStream does not
      // always tell a waiting pull that its consumer is gone).
      expires: PULL_EXPIRES_MS,
      abort_on_missing_resource: true,
    });
    this.messages = messages;
    this.watchForDeletion(messages);
    // close() only queues the end of the iteration (and resolves when it is reached), so never await it
    // before iterating.
    if (this.stopping) void messages.close();
    for await (const msg of messages) {
      // Prefetched but not started: hand it back so another replica can take it now.
      if (this.stopping) this.settle(msg, 'nak');
      else await this.receive(msg);
    }
  }
}

export async function startConsumer<Tx = pg.PoolClient>(options: ConsumerOptions<Tx>): Promise<EventConsumer> {
  const events = dispatch(options.subscriptions);
  const transactions = transactionsOf(options);
  const consumer = new DurableEventConsumer(options, events, transactions, await jetstreamManager(options.nats));
  await consumer.start();
  return consumer;
}
