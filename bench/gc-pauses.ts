// The garbage-collection pauses of each process of a benchmark's stack, for the phases it measures. At
// full load one pause in the gateway or in cards holds up every request in flight, so a p99 is often
// the longest pauses of the measured seconds; printed beside it, they say whether it was.
//
// Every process of the stack loads this file (`--import`, see bench-stack.ts). With ENGRAM_BENCH_GC_DIR
// set, it notes each pause (when it began, its kind and length) and appends the new ones to
// `<dir>/<pid>.log` twice a second; the benchmark reads them back with `gcPausesOf`.
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants, type PerformanceEntry, PerformanceObserver } from 'node:perf_hooks';
import type { Operation } from './measure.ts';

export interface GcPause {
  /** When it began, in milliseconds since the epoch (Date.now()'s clock). */
  at: number;
  kind: 'scavenge' | 'mark-compact' | 'incremental' | 'weak callbacks';
  ms: number;
}

const KINDS: Record<number, GcPause['kind']> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'mark-compact',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};

/** How often each process appends its new pauses to its file. */
export const GC_FLUSH_MS = 500;

/** Notes this process's pauses in `dir`. */
function recordGcPauses(dir: string): void {
  const file = join(dir, `${process.pid}.log`);
  let pending: string[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    try {
      appendFileSync(file, pending.join(''));
    } catch {
      // The benchmark is gone and took its directory along: nothing is listening.
    }
    pending = [];
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceEntry & { detail?: { kind?: number } })[]) {
      const kind = KINDS[entry.detail?.kind ?? -1];
      if (kind)
        pending.push(`${(performance.timeOrigin + entry.startTime).toFixed(1)} ${kind} ${entry.duration.toFixed(2)}\n`);
    }
  }).observe({ entryTypes: ['gc'] });
  setInterval(flush, GC_FLUSH_MS).unref();
  process.on('exit', flush);
}

/** The pauses process `pid` noted in `dir` that began between `from` and `to` (epoch milliseconds). */
export function gcPausesOf(dir: string, pid: number, from: number, to: number): GcPause[] {
  let text: string;
  try {
    text = readFileSync(join(dir, `${pid}.log`), 'utf8');
  } catch {
    return [];
  }
  const pauses: GcPause[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    const [at, kind, ms] = line.split(' ');
    const pause = { at: Number(at), kind: kind as GcPause['kind'], ms: Number(ms) };
    if (pause.at >= from && pause.at <= to) pauses.push(pause);
  }
  return pauses;
}

/**
 * "gateway 17 (219 ms, longest 17.4) · cards 8 (83 ms, longest 18.1)": how many pauses each process
 * made, their sum and the longest, the processes that paused longest first.
 */
export function gcSummary(pausesByProcess: Record<string, GcPause[]>): string {
  const lines = Object.entries(pausesByProcess)
    .filter(([, pauses]) => pauses.length > 0)
    .map(([name, pauses]) => ({
      name,
      count: pauses.length,
      sum: pauses.reduce((total, pause) => total + pause.ms, 0),
      longest: Math.max(...pauses.map((pause) => pause.ms)),
    }))
    .sort((a, b) => b.sum - a.sum);
  if (lines.length === 0) return 'none';
  return lines
    .map(({ name, count, sum, longest }) => `${name} ${count} (${sum.toFixed(0)} ms, longest ${longest.toFixed(1)})`)
    .join(' · ');
}

/** Pauses shorter than this hold a request up less than its own scatter: not counted as its cause. */
export const NOTABLE_PAUSE_MS = 3;

/**
 * "41 of the 48 reviews at or over the p99 ran through a pause of 3 ms or more (gateway 33, cards 12)":
 * how many of `slowest` overlap a notable pause of any process, then per process, most first. An
 * operation that overlaps pauses of two processes counts once in the total, and once for each.
 */
export function slowestThroughPauses(
  slowest: Operation[],
  pausesByProcess: Record<string, GcPause[]>,
  what = 'operations',
): string {
  const overlaps = (operation: Operation, pause: GcPause) =>
    pause.ms >= NOTABLE_PAUSE_MS && pause.at < operation.at + operation.ms && pause.at + pause.ms > operation.at;
  const perProcess = Object.entries(pausesByProcess)
    .map(([name, pauses]) => ({
      name,
      count: slowest.filter((operation) => pauses.some((pause) => overlaps(operation, pause))).length,
    }))
    .filter(({ count }) => count > 0)
    .sort((a, b) => b.count - a.count);
  const all = Object.values(pausesByProcess).flat();
  const through = slowest.filter((operation) => all.some((pause) => overlaps(operation, pause))).length;
  const detail =
    perProcess.length > 0 ? ` (${perProcess.map(({ name, count }) => `${name} ${count}`).join(', ')})` : '';
  return `${through} of the ${slowest.length} ${what} at or over the p99 ran through a pause of ${NOTABLE_PAUSE_MS} ms or more${detail}`;
}

if (process.env.ENGRAM_BENCH_GC_DIR) recordGcPauses(process.env.ENGRAM_BENCH_GC_DIR);
