// Runs a job (an import, an export, an optimization) in a child process of its own, job-process.ts
// (docs/architecture.md#bulkheads): the service that takes learners' calls never runs a job's native code, its
// untrusted file or its minutes of CPU. The child has the job kind's memory and time, and a lower priority than
// the service. A child that runs out of either, or crashes (a native panic aborts its process), fails that one
// job with the reason for its owner, and the queue goes on with the next; a job that threw (its database was
// away) is handed back to be tried again, until job-row.ts gives it up. At shutdown the child is asked to hand
// its job back, and killed when it does not in time.
import { extname } from 'node:path';
import { JobBusy } from '@engram/kit/jobs/work-queue';
import type { Logger } from '@engram/kit/logger';
import { runChild } from '@engram/kit/sandbox/child-process';
import type { Db } from '../db.js';
import { Prisma } from '../generated/prisma/client.js';
import { failJob, type JobTable } from './job-row.js';

// The child runs from the same kind of file as this module: TypeScript in tests, JavaScript from dist/.
const JOB_PROCESS = new URL(`./job-process${extname(new URL(import.meta.url).pathname)}`, import.meta.url);
/** How long a child asked to stop at shutdown has to hand its job back. */
const STOP_GRACE_MS = 15_000;
/** Background work yields the CPU to the calls learners wait for. */
const JOB_NICENESS = 10;

export interface JobRequest {
  table: JobTable;
  jobId: string;
}

export interface JobLimits {
  memoryBytes: number;
  timeoutMs: number;
}

/** The job runner of `table` for the work queue (kit's JobQueueDeclaration.run). */
export function sandboxedJob(
  db: Db,
  table: JobTable,
  limits: JobLimits,
  logger: Logger,
  /** The child's configuration: the service's own (a test gives its own). */
  env: NodeJS.ProcessEnv = process.env,
) {
  return async (jobId: string, { signal }: { signal: AbortSignal }): Promise<void> => {
    const spec = {
      entry: JOB_PROCESS,
      limits,
      logger,
      // fsrs-rs fits on one thread: the other core stays the service's.
      env: { RAYON_NUM_THREADS: '1', ...env },
      stopGraceMs: STOP_GRACE_MS,
      nice: JOB_NICENESS,
    };
    const outcome = await runChild<JobRequest, 'done'>(spec, { table, jobId }, signal);
    if (outcome.ok) return;
    if (outcome.end === 'failed') {
      if (outcome.name === 'JobBusy') throw new JobBusy(outcome.message);
      throw new Error(outcome.message);
    }
    if (outcome.end === 'cancelled') {
      // Killed before it handed its job back: queued again, so the next replica takes it at once.
      await db.$executeRaw`UPDATE ${Prisma.raw(table)} SET status = 'queued', attempts = greatest(attempts - 1, 0)
        WHERE id = ${jobId}::uuid AND status = 'running'`;
      throw signal.reason ?? new Error('the job was stopped');
    }
    logger.warn({ table, jobId, end: outcome.end }, 'a job ended its process; it failed');
    const minutes = String(Math.round(limits.timeoutMs / 60_000));
    // Perhaps ended before it claimed its row: it failed all the same (its turn came and went).
    await failJob(db, table, jobId, outcome.end, { claimable: true, limits: { minutes } });
  };
}
