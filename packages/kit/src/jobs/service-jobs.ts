// A service's background jobs, as runService starts them (docs/architecture.md#jobs): the service declares its
// queues (what runs a job, and which of its jobs are unfinished), hands `enqueue` to the handlers that start
// jobs, and passes the whole to runService. Like events, nothing here blocks start-up: the NATS connection is
// made in the background and the workers start once it answers.
//
// The job's row in the service's database is the truth; the queue's message is only its doorbell. A job whose
// message was never published (NATS was down when it was started) or was lost is found by `unfinished` and
// enqueued again, whenever the queue has nothing waiting and nothing running: a job is never forgotten, and a
// job that is only waiting its turn is not enqueued twice.
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from '../logger.js';
import { connectNats } from '../nats.js';
import {
  enqueueJob,
  ensureWorkQueue,
  type JobContext,
  type JobWorker,
  startJobWorker,
  type WorkQueueSettings,
} from './work-queue.js';

export interface JobQueueDeclaration {
  /** The queue's name, e.g. `cards.imports`. */
  queue: string;
  /** Runs one job (see JobWorkerOptions.run): resolve when it is done or failed for good; JobBusy to wait. */
  run: (jobId: string, context: JobContext) => Promise<void>;
  /** The ids of the jobs not finished yet (queued, or running on a replica that may have died). */
  unfinished: () => Promise<string[]>;
  /** Jobs one replica runs at once (default 1). */
  concurrency?: number;
  ackWaitMs?: number;
  retryDelayMs?: number;
}

export interface ServiceJobsOptions {
  service: string;
  natsUrl: string;
  settings: WorkQueueSettings;
  logger: Logger;
  queues: JobQueueDeclaration[];
  /** How often unfinished jobs are looked for (default 30 s; also once the workers have started). */
  recoverIntervalMs?: number;
  /** How long `enqueue` waits for NATS before leaving the job to recovery (default 2 s). */
  enqueueWaitMs?: number;
}

export interface ServiceJobs {
  /**
   * Rings for job `jobId` of `queue` (its row must already be committed). Never throws: when NATS cannot take
   * it now, the job stays queued in its row and recovery enqueues it later.
   */
  enqueue(queue: string, jobId: string): Promise<void>;
  /** Connects in the background and starts the workers (runService calls it). */
  start(): void;
  /** Stops the workers (running jobs are handed back), then the connection. */
  stop(): Promise<void>;
}

/** How many messages of `queue` are waiting or being run, across every replica. */
async function outstanding(nats: NatsConnection, settings: WorkQueueSettings, queue: string): Promise<number> {
  const info = await (await jetstreamManager(nats)).consumers.info(settings.streamName, queue.replaceAll('.', '-'));
  return info.num_pending + info.num_ack_pending;
}

export function serviceJobs(options: ServiceJobsOptions): ServiceJobs {
  const { logger, settings, queues } = options;
  const recoverIntervalMs = options.recoverIntervalMs ?? 30_000;
  const enqueueWaitMs = options.enqueueWaitMs ?? 2_000;
  const shutdown = new AbortController();
  const workers: JobWorker[] = [];
  let nats: NatsConnection | undefined;
  let recovering: NodeJS.Timeout | undefined;
  let resolveReady: (nats: NatsConnection) => void = () => undefined;
  const ready = new Promise<NatsConnection>((resolve) => {
    resolveReady = resolve;
  });

  async function recover(connection: NatsConnection): Promise<void> {
    for (const declared of queues) {
      try {
        if ((await outstanding(connection, settings, declared.queue)) > 0) continue;
        const ids = await declared.unfinished();
        if (ids.length === 0) continue;
        // A new attempt number per round, so JetStream does not drop it as a duplicate of the lost message.
        const attempt = Date.now();
        for (const id of ids) await enqueueJob(connection, settings, declared.queue, id, attempt);
        logger.info({ queue: declared.queue, jobs: ids.length }, 'unfinished jobs enqueued again');
      } catch (error) {
        if (!shutdown.signal.aborted)
          logger.warn({ err: error, queue: declared.queue }, 'could not look for unfinished jobs');
      }
    }
  }

  /** Runs `step` until it succeeds (NATS or JetStream not ready yet), or until the service stops. */
  async function persist<T>(what: string, step: () => Promise<T>): Promise<T> {
    for (;;) {
      shutdown.signal.throwIfAborted();
      try {
        return await step();
      } catch (error) {
        if (shutdown.signal.aborted) throw error;
        logger.warn({ err: error }, `${what} failed; trying again`);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }
  }

  async function begin(): Promise<void> {
    const connection = await connectNats(options.natsUrl, `${options.service}-jobs`, logger, {
      signal: shutdown.signal,
    });
    nats = connection;
    await persist('setting up the job queue', () => ensureWorkQueue(connection, settings));
    for (const declared of queues) {
      const worker = await persist(`starting the ${declared.queue} worker`, () =>
        startJobWorker({
          nats: connection,
          settings,
          queue: declared.queue,
          run: declared.run,
          logger,
          ...(declared.concurrency !== undefined && { concurrency: declared.concurrency }),
          ...(declared.ackWaitMs !== undefined && { ackWaitMs: declared.ackWaitMs }),
          ...(declared.retryDelayMs !== undefined && { retryDelayMs: declared.retryDelayMs }),
        }),
      );
      workers.push(worker);
      if (shutdown.signal.aborted) break;
    }
    resolveReady(connection);
    await recover(connection);
    if (!shutdown.signal.aborted) recovering = setInterval(() => void recover(connection), recoverIntervalMs);
  }

  return {
    async enqueue(queue, jobId) {
      const timeout = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), enqueueWaitMs).unref());
      const connection = nats ?? (await Promise.race([ready, timeout]));
      try {
        if (!connection) throw new Error('NATS is not reachable');
        await enqueueJob(connection, settings, queue, jobId);
      } catch (error) {
        logger.warn({ err: error, queue, jobId }, 'job not enqueued now; it will be found and enqueued later');
      }
    },
    start() {
      begin().catch((error) => {
        if (!shutdown.signal.aborted) logger.error({ err: error }, 'the job workers could not start');
      });
    },
    async stop() {
      shutdown.abort(new Error('the service is stopping'));
      clearInterval(recovering);
      await Promise.allSettled(workers.map((worker) => worker.stop()));
      await nats?.drain().catch(() => undefined);
    },
  };
}
