// The proof's processes run ahead of whatever else the machine runs, as pods with CPU requests run on a node
// whatever its other pods do: the proof's promises are about Engram under its own faults and hostile learners,
// and without this a CI machine's neighbours (the other test files, CPU burners) decide whether its calls meet
// their deadlines. Every process the proof starts inherits the priority (PostgreSQL, NATS, Redis, each replica,
// each restart and each replacement); Engram's own background work (sandboxed jobs and forecasts, nice 10) stays
// below the processes that serve, as in production.
import { getPriority, setPriority } from 'node:os';

/** The niceness the proof runs at: ahead of the machine's default 0. */
export const PROOF_NICENESS = -5;

export interface Priority {
  /** False where raising it is not allowed (it needs CAP_SYS_NICE): the proof then runs at the default. */
  raised: boolean;
  restore(): void;
}

/** Raises this process's priority, and so that of every process it starts from now on. */
export function runAhead(): Priority {
  const before = getPriority();
  try {
    setPriority(PROOF_NICENESS);
  } catch {
    return { raised: false, restore: () => {} };
  }
  return { raised: true, restore: () => setPriority(before) };
}
