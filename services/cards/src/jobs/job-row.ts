// The row of a job (an import, an export, an optimization) as its worker holds it (docs/architecture.md#jobs):
// claimed in one UPDATE while queued, or while running with a heartbeat over two minutes old (its replica died);
// JobBusy while another replica holds it with a fresh heartbeat, or while another job of the same learner runs
// (so one learner's jobs take one worker at a time, and every other learner's wait for none of them); the
// heartbeat kept fresh while it runs. A job claimed MAX_ATTEMPTS times without ending is given up: it fails with
// that reason for its owner and is never claimed again. A job whose process ended it (out of memory, out of
// time, crashed: jobs/sandboxed-job.ts) fails at once with the reason.
import { importProblem } from '@engram/contracts/import-problems';
import { JobBusy } from '@engram/kit/jobs/work-queue';
import type { ChildEnd } from '@engram/kit/sandbox/child-process';
import type { Db } from '../db.js';
import { Prisma } from '../generated/prisma/client.js';

export type JobTable = 'imports' | 'exports' | 'optimizations';

const HEARTBEAT_MS = 20_000;
/** How stale a running job's heartbeat must be before another replica takes it over. */
const STALE_SECONDS = 120;
/** Claims a job may have; one more and it is given up. */
export const MAX_ATTEMPTS = 3;

/** Why a job failed without finishing: its process ended it, or it was claimed too often. */
export type JobFailure = Exclude<ChildEnd, 'cancelled'> | 'gave-up';

/** Claims job `id` of `table` for this replica: true when claimed, false when it is done, failed or gone. */
export async function claimJob(db: Db, table: JobTable, id: string): Promise<boolean> {
  const name = Prisma.raw(table);
  const claimable = Prisma.sql`(t.status = 'queued'
    OR (t.status = 'running' AND t.heartbeat_at < now() - make_interval(secs => ${STALE_SECONDS})))`;
  const ownerBusy = Prisma.sql`EXISTS (SELECT 1 FROM ${name} o WHERE o.owner_id = t.owner_id AND o.id <> t.id
    AND o.status = 'running' AND o.heartbeat_at >= now() - make_interval(secs => ${STALE_SECONDS}))`;
  const claimed = await db.$queryRaw<{ id: string }[]>`
    UPDATE ${name} t SET status = 'running', attempts = t.attempts + 1, heartbeat_at = now()
    WHERE t.id = ${id}::uuid AND t.attempts < ${MAX_ATTEMPTS} AND ${claimable} AND NOT ${ownerBusy}
    RETURNING t.id`;
  if (claimed.length > 0) return true;
  const [row] = await db.$queryRaw<{ status: string; claimable: boolean; attempts: number; owner_busy: boolean }[]>`
    SELECT t.status, ${claimable} AS claimable, t.attempts, ${ownerBusy} AS owner_busy
    FROM ${name} t WHERE t.id = ${id}::uuid`;
  if (!row) return false;
  if (row.status === 'running' && !row.claimable) throw new JobBusy('the job is running on another replica');
  if (!row.claimable) return false;
  if (row.attempts >= MAX_ATTEMPTS) {
    await failJob(db, table, id, 'gave-up', { claimable: true });
    return false;
  }
  if (row.owner_busy) throw new JobBusy("another of the learner's jobs is running");
  return false;
}

/** Keeps job `id`'s heartbeat fresh until the returned function is called. */
export function keepHeartbeat(db: Db, table: JobTable, id: string): () => void {
  const name = Prisma.raw(table);
  const timer = setInterval(() => {
    void db.$executeRaw`UPDATE ${name} SET heartbeat_at = now() WHERE id = ${id}::uuid`.catch(() => undefined);
  }, HEARTBEAT_MS);
  return () => clearInterval(timer);
}

/** The jobs of `table` not finished: queued, or running (perhaps on a replica that died). */
export async function unfinishedJobs(db: Db, table: JobTable): Promise<string[]> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT id::text FROM ${Prisma.raw(table)} WHERE status IN ('queued', 'running')`;
  return rows.map((row) => row.id);
}

/** What each kind of job says to its owner when it failed so (an export's words are English, as its others). */
const EXPORT_FAILURES: Record<JobFailure, (limits: JobLimitsWords) => string> = {
  'out-of-memory': () =>
    'This export needed more memory than we allow one export, so it was stopped. Export fewer cards at a time ' +
    '(choose some tags).',
  'timed-out': ({ minutes }) =>
    `This export took longer than the ${minutes} minutes we allow one export, so it was stopped. Export fewer ` +
    'cards at a time (choose some tags).',
  crashed: () => 'This export stopped unexpectedly. Please try again.',
  'gave-up': () => `This export failed ${MAX_ATTEMPTS} times, so we stopped trying. Please try again later.`,
};

const IMPORT_FAILURES = {
  'out-of-memory': () => importProblem('importOutOfMemory'),
  'timed-out': ({ minutes }: JobLimitsWords) => importProblem('importTimedOut', { minutes }),
  crashed: () => importProblem('importCrashed'),
  'gave-up': () => importProblem('importGaveUp', { attempts: String(MAX_ATTEMPTS) }),
} satisfies Record<JobFailure, (limits: JobLimitsWords) => unknown>;

export interface JobLimitsWords {
  /** The job's time limit in minutes, as digits. */
  minutes: string;
}

/**
 * Fails job `id` for `failure`, told to its owner, while it is running (or, with `claimable`, while it may be
 * claimed): a job that ended otherwise meanwhile is left as it is.
 */
export async function failJob(
  db: Db,
  table: JobTable,
  id: string,
  failure: JobFailure,
  options: { claimable?: boolean; limits?: JobLimitsWords } = {},
): Promise<void> {
  const limits = options.limits ?? { minutes: '?' };
  const where = options.claimable ? Prisma.sql`status IN ('queued', 'running')` : Prisma.sql`status = 'running'`;
  if (table === 'imports') {
    const problems = JSON.stringify([IMPORT_FAILURES[failure](limits)]);
    await db.$executeRaw`UPDATE imports SET status = 'failed', problems = ${problems}::jsonb, finished_at = now()
      WHERE id = ${id}::uuid AND ${where}`;
  } else if (table === 'exports') {
    await db.$executeRaw`UPDATE exports SET status = 'failed', failure = ${EXPORT_FAILURES[failure](limits)},
      finished_at = now() WHERE id = ${id}::uuid AND ${where}`;
  } else {
    await db.$executeRaw`UPDATE optimizations SET status = 'failed', outcome = ${failure}, finished_at = now()
      WHERE id = ${id}::uuid AND ${where}`;
  }
}
