// A service's whole event wiring, which runService starts from the service's declaration
// (`events: { relay: true, consumers: [...] }`): a pool of its own, the NATS connection, the stream, the
// outbox relay, the consumers, and their shutdown in order. Nothing here blocks start-up: while NATS is
// unreachable the service serves and writes events to its outbox; the relay and consumers start once it
// answers, and the stream is created then (and again whenever JetStream reports it missing).
import type { NatsConnection } from '@nats-io/transport-node';
import type pg from 'pg';
import { createPool } from '../db.js';
import type { Logger } from '../logger.js';
import { connectNats } from '../nats.js';
import type { EventTransactions } from './apply-once.js';
import { type EventConsumer, startConsumer } from './consumer.js';
import { type Pruner, type RetainedRecords, startPruner } from './outbox-prune.js';
import { type OutboxRelay, startOutboxRelay } from './relay.js';
import { type EventsSettings, ensureEventStream } from './setup.js';
import type { Subscription } from './subscriptions.js';

export interface ConsumerDeclaration<Tx> {
  /** Names the durable consumer `<service>-<purpose>`. */
  purpose: string;
  /** `[on(UserDeleted, async (payload, { tx }) => ...)]` */
  subscriptions: Subscription<Tx>[];
  maxDeliver?: number;
  backoffMs?: number[];
  ackWaitMs?: number;
}

/** What a service declares: whether it publishes its outbox, and what it consumes. */
export interface EventsDeclaration<Tx = pg.PoolClient> {
  relay?: boolean;
  consumers?: ConsumerDeclaration<Tx>[];
  /** The service's records that go after their retention (idempotency keys), pruned beside the outbox. */
  records?: RetainedRecords[];
  /** The consumers' transactions (`prismaTransactions(prisma)`); a pg transaction on the events pool otherwise. */
  transactions?: EventTransactions<Tx>;
  /** Relay tuning for tests: poll interval, back-off and pruning. */
  relayOptions?: {
    pollIntervalMs?: number;
    maxBackoffMs?: number;
    publishTimeoutMs?: number;
    pruneIntervalMs?: number;
  };
}

export interface ServiceEventsOptions<Tx> extends EventsDeclaration<Tx> {
  service: string;
  databaseUrl: string;
  natsUrl: string;
  settings: EventsSettings;
  logger: Logger;
}

export interface ServiceEvents {
  /** The events pool (relay, LISTEN, processed events). */
  pool: pg.Pool;
  /** Resolves once NATS answered and the relay and consumers run (rejects only when stopped first). */
  ready: Promise<void>;
  /** Stops waiting for NATS, then the consumers, the relay, NATS and the pool, in that order. */
  stop(): Promise<void>;
}

export function startServiceEvents<Tx = pg.PoolClient>(options: ServiceEventsOptions<Tx>): ServiceEvents {
  const { service, logger, settings } = options;
  const pool = createPool(options.databaseUrl, { applicationName: `${service}-events`, max: 3, logger });
  const shutdown = new AbortController();
  let nats: NatsConnection | undefined;
  let relay: OutboxRelay | undefined;
  let pruner: Pruner | undefined;
  const consumers: EventConsumer[] = [];

  async function start() {
    nats = await connectNats(options.natsUrl, service, logger, { signal: shutdown.signal });
    const connection = nats;
    const ensureStream = () => ensureEventStream(connection, settings, logger);
    let maxAgeMs = 0;
    for (;;) {
      try {
        maxAgeMs = (await ensureStream()).maxAgeMs;
        break;
      } catch (error) {
        shutdown.signal.throwIfAborted();
        logger.warn({ err: error }, 'could not ensure the events stream; retrying');
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }
    shutdown.signal.throwIfAborted();
    if (options.relay) {
      relay = startOutboxRelay({
        pool,
        nats: connection,
        subjectPrefix: settings.subjectPrefix,
        logger,
        processedRetentionMs: maxAgeMs,
        ensureStream,
        ...(options.records && { records: options.records }),
        ...options.relayOptions,
      });
    } else {
      // No relay: the service publishes nothing and has no outbox to prune (ai).
      pruner = startPruner(pool, logger, {
        outbox: false,
        processedRetentionMs: maxAgeMs,
        ...(options.records && { records: options.records }),
      });
    }
    for (const declared of options.consumers ?? []) {
      shutdown.signal.throwIfAborted();
      consumers.push(
        await startConsumer<Tx>({
          nats: connection,
          pool,
          ...(options.transactions && { transactions: options.transactions }),
          streamName: settings.streamName,
          subjectPrefix: settings.subjectPrefix,
          service,
          purpose: declared.purpose,
          subscriptions: declared.subscriptions,
          ensureStream,
          logger,
          ...(declared.maxDeliver !== undefined && { maxDeliver: declared.maxDeliver }),
          ...(declared.backoffMs && { backoffMs: declared.backoffMs }),
          ...(declared.ackWaitMs !== undefined && { ackWaitMs: declared.ackWaitMs }),
        }),
      );
    }
    logger.info({ relay: Boolean(options.relay), consumers: consumers.map((c) => c.name) }, 'events running');
  }

  const ready = start();
  // A failure before stop() is a programming error (a bad consumer declaration): make it loud.
  ready.catch((error) => {
    if (!shutdown.signal.aborted) logger.error({ err: error }, 'events could not start');
  });

  return {
    pool,
    ready,
    async stop() {
      shutdown.abort(new Error('shutting down'));
      await ready.catch(() => undefined);
      await Promise.all(consumers.map((consumer) => consumer.stop()));
      await relay?.stop();
      await pruner?.stop();
      await nats?.drain().catch(() => nats?.close());
      await pool.end();
    },
  };
}
