// Background jobs on the JetStream work queue, against the real NATS server: a job runs once on one of
// several workers; a long job stays with its worker; a worker that dies or stops hands its job to another; a
// job that fails is tried again; the same job enqueued twice is one message.
import { randomBytes, randomUUID } from 'node:crypto';
import {
  enqueueJob,
  JobBusy,
  type JobContext,
  type JobWorker,
  startJobWorker,
  type WorkQueueSettings,
} from '@engram/kit/jobs/work-queue';
import { createLogger } from '@engram/kit/logger';
import { connectNats } from '@engram/kit/nats';
import { testContext } from '@engram/testkit/context';
import { waitUntil } from '@engram/testkit/wait';
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const logger = createLogger({ service: 'jobs-test', level: process.env.LOG_LEVEL ?? 'silent' });
const context = testContext();
let nats: NatsConnection;
const workers: JobWorker[] = [];
const connections: NatsConnection[] = [];

beforeAll(async () => {
  nats = await connectNats(context.natsUrl, 'jobs-test', logger);
});

afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop()));
  await Promise.all(connections.splice(0).map((connection) => connection.close().catch(() => undefined)));
});

afterAll(async () => {
  const jsm = await jetstreamManager(nats);
  for await (const stream of jsm.streams.list()) {
    if (stream.config.name.startsWith(`${context.streamName}_Q`)) await jsm.streams.delete(stream.config.name);
  }
  await nats.close();
});

/** A work queue of its own for one test. */
function freshQueue(): WorkQueueSettings {
  const suffix = randomBytes(3).toString('hex');
  return {
    streamName: `${context.streamName}_Q${suffix.toUpperCase()}`,
    subjectPrefix: `${context.subjectPrefix}${suffix}.`,
  };
}

type Run = (jobId: string, job: JobContext) => Promise<void>;

async function worker(settings: WorkQueueSettings, run: Run, options: { ackWaitMs?: number; own?: boolean } = {}) {
  const connection = options.own ? await connectNats(context.natsUrl, 'jobs-test-worker', logger) : nats;
  if (options.own) connections.push(connection);
  const started = await startJobWorker({
    nats: connection,
    settings,
    queue: 'test.jobs',
    run,
    logger,
    ackWaitMs: options.ackWaitMs ?? 2_000,
    retryDelayMs: 100,
  });
  workers.push(started);
  return { worker: started, connection };
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

describe('a job on the work queue', () => {
  it('runs once, on one of the workers taking jobs', async () => {
    const settings = freshQueue();
    const runs: string[] = [];
    const record: Run = async (jobId) => {
      runs.push(jobId);
    };
    await worker(settings, record);
    await worker(settings, record);
    const jobs = Array.from({ length: 6 }, () => randomUUID());
    for (const job of jobs) await enqueueJob(nats, settings, 'test.jobs', job);
    await waitUntil('every job ran', () => runs.length >= jobs.length);
    await sleep(500);
    expect(runs.sort()).toEqual([...jobs].sort());
  });

  it('is one message when it is enqueued twice (a retried call), and runs again when enqueued as a new attempt', async () => {
    const settings = freshQueue();
    const runs: string[] = [];
    const job = randomUUID();
    await worker(settings, async (jobId) => {
      runs.push(jobId);
    });
    await enqueueJob(nats, settings, 'test.jobs', job);
    await enqueueJob(nats, settings, 'test.jobs', job);
    await waitUntil('the job ran', () => runs.length >= 1);
    await sleep(500);
    expect(runs).toEqual([job]);
    await enqueueJob(nats, settings, 'test.jobs', job, 1);
    await waitUntil('the new attempt ran', () => runs.length >= 2);
  });

  it('stays with its worker while it runs longer than the acknowledgement wait', async () => {
    const settings = freshQueue();
    const runs: { jobId: string; delivery: number }[] = [];
    const slow: Run = async (jobId, { delivery }) => {
      runs.push({ jobId, delivery });
      await sleep(3_500);
    };
    await worker(settings, slow, { ackWaitMs: 1_000 });
    await worker(settings, slow, { ackWaitMs: 1_000 });
    const job = randomUUID();
    await enqueueJob(nats, settings, 'test.jobs', job);
    await sleep(5_000);
    expect(runs).toEqual([{ jobId: job, delivery: 1 }]);
  });

  it('goes to another worker when its worker dies in the middle of it', async () => {
    const settings = freshQueue();
    const started: { worker: string; delivery: number }[] = [];
    const never = new Promise<void>(() => undefined);
    const doomed = await worker(
      settings,
      async (_jobId, { delivery }) => {
        started.push({ worker: 'doomed', delivery });
        await never;
      },
      { own: true, ackWaitMs: 1_000 },
    );
    const job = randomUUID();
    await enqueueJob(nats, settings, 'test.jobs', job);
    await waitUntil('the first worker took the job', () => started.length === 1);
    // The process dies: its connection is gone, nothing is acknowledged.
    await doomed.connection.close();
    workers.splice(workers.indexOf(doomed.worker), 1);
    await worker(settings, async (_jobId, { delivery }) => {
      started.push({ worker: 'survivor', delivery });
    });
    await waitUntil('another worker ran the job', () => started.length === 2, 20_000);
    expect(started).toEqual([
      { worker: 'doomed', delivery: 1 },
      { worker: 'survivor', delivery: 2 },
    ]);
  });

  it('is handed back when its worker stops (shutdown), and another worker takes it at once', async () => {
    const settings = freshQueue();
    const seen: string[] = [];
    const stopping = await worker(
      settings,
      async (_jobId, { signal }) => {
        seen.push('stopping worker started');
        await sleep(60_000, signal);
      },
      { ackWaitMs: 30_000 },
    );
    const job = randomUUID();
    await enqueueJob(nats, settings, 'test.jobs', job);
    await waitUntil('the job started', () => seen.length === 1);
    await stopping.worker.stop();
    workers.splice(workers.indexOf(stopping.worker), 1);
    const startedAt = Date.now();
    await worker(settings, async () => {
      seen.push('other worker ran it');
    });
    await waitUntil('the other worker ran the job', () => seen.length === 2);
    // Long before the 30 s acknowledgement wait: the job was handed back, not abandoned.
    expect(Date.now() - startedAt).toBeLessThan(15_000);
  });

  it('is tried again after it fails', async () => {
    const settings = freshQueue();
    const deliveries: number[] = [];
    await worker(settings, async (_jobId, { delivery }) => {
      deliveries.push(delivery);
      if (delivery < 3) throw new Error('the store did not answer');
    });
    await enqueueJob(nats, settings, 'test.jobs', randomUUID());
    await waitUntil('the third delivery succeeded', () => deliveries.length === 3);
    await sleep(500);
    expect(deliveries).toEqual([1, 2, 3]);
  });

  it('runs on two workers at once when two jobs wait (each worker takes one at a time)', async () => {
    const settings = freshQueue();
    let running = 0;
    let most = 0;
    const done: string[] = [];
    const slow: Run = async (jobId) => {
      running++;
      most = Math.max(most, running);
      await sleep(1_000);
      running--;
      done.push(jobId);
    };
    await worker(settings, slow);
    await worker(settings, slow);
    for (const job of [randomUUID(), randomUUID()]) await enqueueJob(nats, settings, 'test.jobs', job);
    await waitUntil('both jobs ran', () => done.length === 2);
    expect(most).toBe(2);
  });

  it('is offered again, quietly, while another worker holds it, and runs once it is free', async () => {
    const settings = freshQueue();
    let heldElsewhere = true;
    const attempts: string[] = [];
    await worker(settings, async () => {
      if (heldElsewhere) {
        attempts.push('busy');
        throw new JobBusy();
      }
      attempts.push('ran');
    });
    await enqueueJob(nats, settings, 'test.jobs', randomUUID());
    await waitUntil('the job was offered twice while held', () => attempts.length >= 2);
    heldElsewhere = false;
    await waitUntil('the job ran', () => attempts.includes('ran'));
    await sleep(500);
    expect(attempts.filter((attempt) => attempt === 'ran')).toHaveLength(1);
  });
});
