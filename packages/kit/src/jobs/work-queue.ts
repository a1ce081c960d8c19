// Background jobs on a JetStream work queue: a job is one message naming a job id (the job's state lives in
// the service's database), any replica may take it, and each message is removed once acknowledged. A worker
// keeps a running job's message alive (`working()`), so a long job is never handed to a second replica; a
// worker that dies leaves its message unacknowledged, and JetStream gives it to another replica once the
// acknowledgement wait runs out. Which replica runs a job is the database's to decide (a job claims its row):
// a message delivered twice, or a job enqueued again, never runs the same job twice at once.
import {
  AckPolicy,
  type ConsumerMessages,
  JetStreamApiCodes,
  JetStreamApiError,
  type JsMsg,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
} from '@nats-io/jetstream';
import { type NatsConnection, nanos } from '@nats-io/transport-node';
import type { Logger } from '../logger.js';

/** Where a service's jobs travel: a stream of their own beside the events stream, with the same subject prefix. */
export interface WorkQueueSettings {
  /** `<events stream>_JOBS`: ENGRAM_JOBS in production. */
  streamName: string;
  /** Empty in production; tests isolate runs with it, as they do events. */
  subjectPrefix: string;
  /** Copies of the stream in the JetStream cluster. */
  replicas?: number;
}

export function workQueueSettings(events: {
  streamName: string;
  subjectPrefix: string;
  limits?: { replicas?: number };
}): WorkQueueSettings {
  return {
    streamName: `${events.streamName}_JOBS`,
    subjectPrefix: events.subjectPrefix,
    ...(events.limits?.replicas !== undefined && { replicas: events.limits.replicas }),
  };
}

/** The subject of one queue's jobs, e.g. `jobs.cards.imports`. */
export const jobSubject = (settings: WorkQueueSettings, queue: string) => `${settings.subjectPrefix}jobs.${queue}`;

/** Creates the work-queue stream when it is missing (every replica does, idempotently). */
export async function ensureWorkQueue(nats: NatsConnection, settings: WorkQueueSettings): Promise<void> {
  const jsm = await jetstreamManager(nats);
  try {
    await jsm.streams.info(settings.streamName);
  } catch (error) {
    if (!(error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound)) throw error;
    await jsm.streams
      .add({
        name: settings.streamName,
        subjects: [`${settings.subjectPrefix}jobs.>`],
        retention: RetentionPolicy.Workqueue,
        storage: StorageType.File,
        num_replicas: settings.replicas ?? 1,
        // A job enqueued twice within a minute (a retried call) is one message.
        duplicate_window: nanos(60_000),
      })
      .catch(async (raced) => {
        // Another replica created it in the meantime.
        if (!(await jsm.streams.info(settings.streamName).catch(() => null))) throw raced;
      });
  }
}

/**
 * Puts job `jobId` on `queue`. `attempt` distinguishes a deliberate re-enqueue (a job found stalled) from a
 * retried publish of the same one, which JetStream drops as a duplicate.
 */
export async function enqueueJob(
  nats: NatsConnection,
  settings: WorkQueueSettings,
  queue: string,
  jobId: string,
  attempt = 0,
): Promise<void> {
  await jetstream(nats).publish(jobSubject(settings, queue), new TextEncoder().encode(jobId), {
    msgID: `${jobId}:${attempt}`,
  });
}

export interface JobContext {
  /** Aborted when the worker stops (shutdown): stop at the next safe point and throw; the job is handed back. */
  signal: AbortSignal;
  /** How many times this message has been delivered (1 the first time). */
  delivery: number;
}

export interface JobWorkerOptions {
  nats: NatsConnection;
  settings: WorkQueueSettings;
  /** The queue's name, e.g. `cards.imports`: its subject and its durable consumer. */
  queue: string;
  /**
   * Runs one job. Resolving acknowledges the message (done, or failed for good: the job records which);
   * throwing hands it back to be tried again after `retryDelayMs`.
   */
  run: (jobId: string, context: JobContext) => Promise<void>;
  logger: Logger;
  /** Jobs one replica runs at once (default 1: a job is heavy). */
  concurrency?: number;
  /** How long JetStream waits for a sign of life before giving a job to another replica (default 30 s). */
  ackWaitMs?: number;
  /** The pause before a job that threw is tried again (default 5 s). */
  retryDelayMs?: number;
}

export interface JobWorker {
  /** Stops taking jobs, aborts the running ones (they are handed back) and resolves once they have ended. */
  stop(): Promise<void>;
}

const PULL_EXPIRES_MS = 5_000;

export async function startJobWorker(options: JobWorkerOptions): Promise<JobWorker> {
  const { nats, settings, queue, logger } = options;
  const ackWaitMs = options.ackWaitMs ?? 30_000;
  const retryDelayMs = options.retryDelayMs ?? 5_000;
  const concurrency = options.concurrency ?? 1;
  const durable = queue.replaceAll('.', '-');
  const log = logger.child({ queue });
  await ensureWorkQueue(nats, settings);
  const jsm = await jetstreamManager(nats);
  const consumerConfig = {
    durable_name: durable,
    ack_policy: AckPolicy.Explicit,
    filter_subject: jobSubject(settings, queue),
    ack_wait: nanos(ackWaitMs),
    max_deliver: -1,
    max_ack_pending: concurrency,
  };
  await jsm.consumers.add(settings.streamName, consumerConfig).catch(async (error) => {
    // It exists (another replica, an earlier run): bring its settings up to date.
    if (!(await jsm.consumers.info(settings.streamName, durable).catch(() => null))) throw error;
    await jsm.consumers.update(settings.streamName, durable, {
      ack_wait: consumerConfig.ack_wait,
      max_ack_pending: concurrency,
    });
  });
  const js = jetstream(nats);

  const stopping = new AbortController();
  const running = new Set<Promise<void>>();
  let messages: ConsumerMessages | undefined;

  function settle(msg: JsMsg, how: 'ack' | 'nak', delayMs?: number): void {
    try {
      if (how === 'ack') msg.ack();
      else msg.nak(delayMs);
    } catch (error) {
      log.warn({ err: error, how }, 'could not settle a job; JetStream will deliver it again');
    }
  }

  async function runOne(msg: JsMsg): Promise<void> {
    const jobId = new TextDecoder().decode(msg.data);
    const keepAlive = setInterval(
      () => {
        try {
          msg.working();
        } catch {
          // Connection lost: JetStream will deliver the job again after the wait.
        }
      },
      Math.max(ackWaitMs / 3, 100),
    );
    try {
      await options.run(jobId, { signal: stopping.signal, delivery: msg.info.deliveryCount });
      settle(msg, 'ack');
    } catch (error) {
      if (stopping.signal.aborted) {
        log.info({ jobId }, 'job handed back at shutdown');
        settle(msg, 'nak');
      } else {
        log.warn({ err: error, jobId, delivery: msg.info.deliveryCount, retryInMs: retryDelayMs }, 'job failed');
        settle(msg, 'nak', retryDelayMs);
      }
    } finally {
      clearInterval(keepAlive);
    }
  }

  async function loop(): Promise<void> {
    while (!stopping.signal.aborted) {
      try {
        const consumer = await js.consumers.get(settings.streamName, durable);
        messages = await consumer.consume({ max_messages: concurrency, expires: PULL_EXPIRES_MS });
        if (stopping.signal.aborted) void messages.close();
        for await (const msg of messages) {
          if (stopping.signal.aborted) {
            settle(msg, 'nak');
            continue;
          }
          const job = runOne(msg).finally(() => running.delete(job));
          running.add(job);
          // Take the next message only while fewer than `concurrency` jobs run.
          while (running.size >= concurrency) await Promise.race(running);
        }
      } catch (error) {
        if (stopping.signal.aborted) return;
        log.warn({ err: error }, 'the job queue could not be read; trying again');
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }
  }

  const looping = loop();
  log.info({ stream: settings.streamName, concurrency }, 'taking jobs');

  return {
    async stop() {
      stopping.abort(new Error('the worker is stopping'));
      void messages?.close();
      await Promise.allSettled([...running]);
      await looping;
    },
  };
}
