// The outbox relay: a loop that publishes committed outbox rows to JetStream. It wakes on the outbox's
// NOTIFY, polls as a fallback, and backs off while NATS or PostgreSQL is unreachable. An event leaves the
// outbox only once JetStream has acknowledged it, so a crash or outage delays events but never loses one.
//
// Give it a NatsConnection made with `maxReconnectAttempts: -1`: a connection that gave up reconnecting
// stays closed, and the relay would retry against it forever.
import { jetstream } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type pg from 'pg';
import type { Logger } from '../logger.js';
import { outboxLag, outboxOldestAge } from '../metrics.js';
import { readOutboxLag } from './outbox-lag.js';
import { listenForOutbox } from './outbox-listener.js';
import { type RetainedRecords, startPruner } from './outbox-prune.js';
import { type PublishPass, publishPendingEvents } from './outbox-publisher.js';
import { createWakeSignal } from './wake-signal.js';

export interface OutboxRelayOptions {
  /** A pool whose search_path is the service's schema. */
  pool: pg.Pool;
  nats: NatsConnection;
  /** '' in production; the run's prefix in tests. */
  subjectPrefix: string;
  logger: Logger;
  /** How often to look for events when no notification arrives. */
  pollIntervalMs?: number;
  /**
   * How long a pass waits after a notification for more events to commit (default 5 ms): under load a
   * pass then publishes several, instead of running its five statements for each event alone.
   */
  lingerMs?: number;
  batchSize?: number;
  publishTimeoutMs?: number;
  /** The longest pause between retries while publishing fails. */
  maxBackoffMs?: number;
  /** How long published events stay in the outbox (default OUTBOX_RETENTION_MS, 7 days). */
  retentionMs?: number;
  /** How long consumers' processed_events rows are kept: the stream's max age (0 keeps them). */
  processedRetentionMs?: number;
  /** How often the pruner runs (default hourly). */
  pruneIntervalMs?: number;
  /** The service's records the pruner deletes after their retention (idempotency keys). */
  records?: RetainedRecords[];
  /** Creates the stream again; called when a publish finds no stream to take it (deleted while running). */
  ensureStream?: () => Promise<unknown>;
}

export interface OutboxRelay {
  /** Finishes the pass in progress (its publishes are acknowledged or kept) and stops. */
  stop(): Promise<void>;
}

const LAG_REFRESH_MS = 5_000;

/** JetStream answers a publish to a subject no stream captures with "no responders" (503). */
function noStreamFor(error: unknown): boolean {
  const described = error instanceof Error ? `${error.name} ${error.message} ${String(error.cause ?? '')}` : '';
  return /no responders|503|stream not found/i.test(described);
}

function backoffMs(failures: number, maxBackoffMs: number): number {
  return Math.min(maxBackoffMs, 100 * 2 ** Math.min(failures, 16));
}

export function startOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  const { pool, nats, subjectPrefix, logger } = options;
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  const lingerMs = options.lingerMs ?? 5;
  const maxBackoffMs = options.maxBackoffMs ?? 10_000;
  const publish = {
    subjectPrefix,
    batchSize: options.batchSize ?? 100,
    publishTimeoutMs: options.publishTimeoutMs ?? 5_000,
  };
  const js = jetstream(nats);
  const signal = createWakeSignal();
  const listener = listenForOutbox(pool, logger, () => signal.wake());
  let stopped = false;
  let lagReadAt = 0;
  const pruner = startPruner(pool, logger, {
    ...(options.retentionMs !== undefined && { outboxRetentionMs: options.retentionMs }),
    ...(options.processedRetentionMs !== undefined && { processedRetentionMs: options.processedRetentionMs }),
    ...(options.pruneIntervalMs !== undefined && { intervalMs: options.pruneIntervalMs }),
    ...(options.records && { records: options.records }),
  });

  async function refreshLagMetrics() {
    if (Date.now() - lagReadAt < LAG_REFRESH_MS) return;
    lagReadAt = Date.now();
    const lag = await readOutboxLag(pool);
    outboxLag.set(lag.unpublished);
    outboxOldestAge.set(lag.oldestAgeSeconds);
  }

  async function run() {
    let failures = 0;
    while (!stopped) {
      let pass: PublishPass;
      try {
        pass = await publishPendingEvents(pool, js, publish);
      } catch (error) {
        pass = { claimed: 0, published: 0, failure: error };
      }
      await refreshLagMetrics().catch((error) => logger.debug({ err: error }, 'could not read the outbox lag'));
      if (pass.failure !== undefined) {
        failures += 1;
        if (options.ensureStream && noStreamFor(pass.failure)) {
          logger.warn('no stream takes the events; creating it again');
          await options.ensureStream().catch((error) => logger.warn({ err: error }, 'could not create the stream'));
        }
        const delay = backoffMs(failures, maxBackoffMs);
        logger.warn(
          { err: pass.failure, unpublished: pass.claimed - pass.published, retryInMs: delay },
          'outbox relay could not publish; will retry',
        );
        // Not wakeable: new events must not cut the back-off short while NATS is down.
        await signal.pause(delay, false);
        continue;
      }
      failures = 0;
      if (pass.claimed < publish.batchSize) {
        await signal.pause(pollIntervalMs, true);
        // A notification that comes meanwhile is kept for the pause after the next pass.
        if (lingerMs > 0) await signal.pause(lingerMs, false);
      }
    }
  }

  const running = run();
  return {
    async stop() {
      stopped = true;
      signal.close();
      await running;
      await Promise.all([listener.stop(), pruner.stop()]);
    },
  };
}
