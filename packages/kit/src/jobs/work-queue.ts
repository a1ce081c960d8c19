// Background jobs on a JetStream work queue: a job is one message naming a job id (the job's state lives in
// the service's database), any replica may take it, and each message is removed once acknowledged. A worker
// keeps a running job's message alive (`working()`), so a long job is never handed to a second replica; a
// worker that dies leaves its message unacknowledged, and JetStream gives it to another replica once the
// acknowledgement wait runs out. Which replica runs a job is the database's to decide (a job claims its row):
// a message delivered twice, or a job enqueued again, never runs the same job twice at once. A job whose row
// another replica still holds (it may have died; its heartbeat has not gone stale yet) throws JobBusy and is
// offered again after a pause, until the row can be taken over or is finished.
import {
  AckPolicy,
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

/**
 * Thrown by a job that cannot run yet because another replica holds it: the message is offered again after
 * the retry delay, without a warning (a dead replica's job waits here until its heartbeat goes stale).
 */
export class JobBusy extends Error {
  constructor(message = 'the job is held by another replica') {
    super(message);
    this.name = 'JobBusy';
  }
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
/** Jobs running at once across all replicas of a service: far more than replicas × concurrency. */
const MAX_JOBS_IN_FLIGHT = 1_000;

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
    // Consumer-wide (every replica shares the durable consumer): each replica limits itself to `concurrency`
    // by asking for one message per free slot.
    max_ack_pending: MAX_JOBS_IN_FLIGHT,
  };
  await jsm.consumers.add(settings.streamName, consumerConfig).catch(async (error) => {
    // It exists (another replica, an earlier run): bring its settings up to date.
    if (!(await jsm.consumers.info(settings.streamName, durable).catch(() => null))) throw error;
    await jsm.consumers.update(settings.streamName, durable, {
      ack_wait: consumerConfig.ack_wait,
      max_ack_pending: MAX_JOBS_IN_FLIGHT,
    });
  });
  const js = jetstream(nats);

  const stopping = new AbortController();
  const running = new Set<Promise<void>>();

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
      } else if (error instanceof JobBusy) {
        log.debug({ jobId, reason: error.message, retryInMs: retryDelayMs }, 'job not ready');
        settle(msg, 'nak', retryDelayMs);
      } else {
        log.warn({ err: error, jobId, delivery: msg.info.deliveryCount, retryInMs: retryDelayMs }, 'job failed');
        settle(msg, 'nak', retryDelayMs);
      }
    } finally {
      clearInterval(keepAlive);
    }
  }

  /** One slot: takes a message only when it is free, so a busy replica holds no job another could run. */
  async function slot(): Promise<void> {
    while (!stopping.signal.aborted) {
      try {
        const consumer = await js.consumers.get(settings.streamName, durable);
        const msg = await consumer.next({ expires: PULL_EXPIRES_MS });
        if (!msg) continue;
        if (stopping.signal.aborted) {
          settle(msg, 'nak');
          return;
        }
        const job = runOne(msg).finally(() => running.delete(job));
        running.add(job);
        await job;
      } catch (error) {
        if (stopping.signal.aborted) return;
        log.warn({ err: error }, 'the job queue could not be read; trying again');
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }
  }

  // A slot waiting for a message ends when its pull expires; stop() does not wait for that (a message that
  // arrives meanwhile is handed back).
  for (let i = 0; i < concurrency; i++) void slot();
  log.info({ stream: settings.streamName, concurrency }, 'taking jobs');

  return {
    async stop() {
      stopping.abort(new Error('the worker is stopping'));
      await Promise.allSettled([...running]);
    },
  };
}
