// A learner's jobs of one kind (imports, exports) queued or running, and the lock a start takes to count them:
// a start that counts and queues inside one transaction holding the learner's lock for that kind cannot be
// passed by another start at the same moment, so a learner never has more running than their limit.
import { Prisma } from '../generated/prisma/client.js';

type Tx = Prisma.TransactionClient;
export type LearnerJobTable = 'imports' | 'exports';

/** Takes the learner's lock for starting jobs of `table`, until the transaction ends. */
export const lockLearnerJobs = (tx: Tx, table: LearnerJobTable, ownerId: string) =>
  tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`cards-${table}:${ownerId}`}))`;

/** How many of the learner's jobs of `table` are queued or running. */
export async function activeJobs(tx: Tx, table: LearnerJobTable, ownerId: string): Promise<number> {
  const [row] = await tx.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM ${Prisma.raw(table)}
    WHERE owner_id = ${ownerId} AND status IN ('queued', 'running')`;
  return row?.n ?? 0;
}
