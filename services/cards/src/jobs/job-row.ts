// The row of a job (an import, an export, an optimization) as its worker holds it (docs/architecture.md#jobs):
// claimed in one UPDATE while queued, or while running with a heartbeat over two minutes old (its replica died);
// JobBusy while another replica holds it with a fresh heartbeat, so the message waits its turn; the heartbeat
// kept fresh while it runs.
import { JobBusy } from '@engram/kit/jobs/work-queue';
import type { Db } from '../db.js';
import { Prisma } from '../generated/prisma/client.js';

export type JobTable = 'imports' | 'exports' | 'optimizations';

const HEARTBEAT_MS = 20_000;
/** How stale a running job's heartbeat must be before another replica takes it over. */
const STALE_SECONDS = 120;

/** Claims job `id` of `table` for this replica: true when claimed, false when it is done, failed or gone. */
export async function claimJob(db: Db, table: JobTable, id: string): Promise<boolean> {
  const name = Prisma.raw(table);
  const claimed = await db.$queryRaw<{ id: string }[]>`
    UPDATE ${name} SET status = 'running', attempts = attempts + 1, heartbeat_at = now()
    WHERE id = ${id}::uuid AND (status = 'queued'
      OR (status = 'running' AND heartbeat_at < now() - make_interval(secs => ${STALE_SECONDS})))
    RETURNING id`;
  if (claimed.length > 0) return true;
  const [row] = await db.$queryRaw<{ status: string }[]>`SELECT status FROM ${name} WHERE id = ${id}::uuid`;
  if (row?.status === 'running') throw new JobBusy(`the job is running on another replica`);
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
