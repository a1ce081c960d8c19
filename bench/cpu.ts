// CPU time spent by each process of a benchmark's stack, by the machine's servers (every PostgreSQL
// backend, NATS and Redis) and by the benchmark's own process, read from /proc around a measured
// phase: where each operation's cost went, which a throughput figure on a shared two-core machine does
// not say.
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

/** user + system CPU milliseconds of one process (0 once it is gone). */
function processCpuMs(pid: number | string): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

// The machine's servers the stack shares with anything else running, by their process names: every
// PostgreSQL backend, NATS and Redis.
const SERVERS: Record<string, string> = { postgres: 'postgres', 'nats-server': 'nats', 'redis-server': 'redis' };

/** The CPU milliseconds of each server process, keyed `<server>#<pid>`. */
function serversCpuMs(): CpuSnapshot {
  const snapshot: CpuSnapshot = {};
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const comm = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
      const server = Object.entries(SERVERS).find(([prefix]) => comm.startsWith(prefix))?.[1];
      if (server) snapshot[`${server}#${entry}`] = processCpuMs(entry);
    } catch {
      // gone meanwhile
    }
  }
  return snapshot;
}

/** CPU milliseconds so far of each process, keyed by its name, or `<name>#<pid>` for one of several. */
export type CpuSnapshot = Record<string, number>;

export function cpuSnapshot(pids: Record<string, number | undefined>): CpuSnapshot {
  const usage = process.cpuUsage();
  const snapshot: CpuSnapshot = { bench: (usage.user + usage.system) / 1000, ...serversCpuMs() };
  for (const [name, pid] of Object.entries(pids)) if (pid !== undefined) snapshot[name] = processCpuMs(pid);
  return snapshot;
}

/**
 * "gateway 1.21 · cards 0.83 · …" ms of CPU per operation between two snapshots, busiest first, a
 * server's processes summed. Each process counts what it spent in between: one started meanwhile (a new
 * PostgreSQL backend) from zero; one gone meanwhile (a pool closing an idle connection) not at all, where
 * subtracting its earlier total from the server's would have taken the others' work away with it.
 */
export function cpuPerOperation(before: CpuSnapshot, after: CpuSnapshot, operations: number): string {
  const byName = new Map<string, number>();
  for (const [key, ms] of Object.entries(after)) {
    const name = key.split('#')[0] ?? key;
    byName.set(name, (byName.get(name) ?? 0) + ms - (before[key] ?? 0));
  }
  const spent = [...byName]
    .map(([name, ms]) => [name, ms / operations] as const)
    .filter(([, ms]) => ms >= 0.005)
    .sort((a, b) => b[1] - a[1]);
  const total = spent.reduce((sum, [, ms]) => sum + ms, 0);
  return `${spent.map(([name, ms]) => `${name} ${ms.toFixed(2)}`).join(' · ')} (total ${total.toFixed(2)} ms)`;
}
