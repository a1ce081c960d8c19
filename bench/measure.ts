// Runs `operation` `total` times and reports operations per second and the latency of each operation
// (p50, p99) in milliseconds: with `concurrency` in flight as fast as they are answered (`measure`), or
// offered at a steady rate (`measurePaced`).
export interface Measurement {
  perSecond: number;
  p50: number;
  p99: number;
  /** The operations whose latency was the p99 or more: when each began (epoch ms) and its latency. */
  slowest: Operation[];
}

export interface Operation {
  /** When it began (or was due), in milliseconds since the epoch (Date.now()'s clock). */
  at: number;
  ms: number;
}

/** The p-th percentile latency of operations sorted by latency. */
export function percentile(sorted: Operation[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]?.ms ?? 0;
}

/** `total` operations done since `started` (a performance.now()), with their latencies. */
function summary(total: number, started: number, operations: Operation[]): Measurement {
  const perSecond = total / ((performance.now() - started) / 1000);
  operations.sort((a, b) => a.ms - b.ms);
  const p99 = percentile(operations, 99);
  return {
    perSecond,
    p50: percentile(operations, 50),
    p99,
    slowest: operations.filter((operation) => operation.ms >= p99),
  };
}

/** An operation that began at `began` (a performance.now()) and took until now. */
const since = (began: number): Operation => ({ at: performance.timeOrigin + began, ms: performance.now() - began });

export async function measure(
  total: number,
  concurrency: number,
  operation: (i: number) => Promise<unknown>,
): Promise<Measurement> {
  let next = 0;
  const operations: Operation[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const began = performance.now();
        await operation(i);
        operations.push(since(began));
      }
    }),
  );
  return summary(total, started, operations);
}

/**
 * Little's law for `clients` that always have an operation waiting: each waits clients / throughput on
 * average (milliseconds), and their p99 can hardly come out below that mean.
 */
export const closedLoopWait = (clients: number, measured: Measurement) => (1000 * clients) / measured.perSecond;

/** A target a ratio of two measurements of the same run must meet: at least or at most a bound. */
export type Target = { atLeast: number } | { atMost: number };

/** Whether `ratio` meets `target`. */
export const meets = (ratio: number, target: Target) =>
  'atLeast' in target ? ratio >= target.atLeast : ratio <= target.atMost;

/** A ratio for the printout, beside its target and whether it met it: "0.45 (target ≥ 0.40: met)". */
export function ratioAgainst(ratio: number, target: Target): string {
  const bound = 'atLeast' in target ? `≥ ${target.atLeast.toFixed(2)}` : `≤ ${target.atMost.toFixed(2)}`;
  return `${ratio.toFixed(2)} (target ${bound}: ${meets(ratio, target) ? 'met' : 'MISSED'})`;
}

export async function throughput(total: number, concurrency: number, operation: (i: number) => Promise<unknown>) {
  return (await measure(total, concurrency, operation)).perSecond;
}

/** Milliseconds `work` took. */
export async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** The middle of `values` (the upper one of an even count). */
export const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** A latency for the printout: two decimals below 1 ms (a PostgreSQL round trip), one above. */
export const ms = (value: number) => `${value.toFixed(value < 1 ? 2 : 1)} ms`;

/**
 * `total` operations offered at a steady `perSecond` by `concurrency` clients taking turns: when each is
 * sent is fixed in advance, not by the answer to the one before. A latency counts from when its
 * operation was due, so an answer that held its client up also counts against the operations it
 * delayed.
 */
export async function measurePaced(
  total: number,
  concurrency: number,
  perSecond: number,
  operation: (i: number) => Promise<unknown>,
): Promise<Measurement> {
  const operations: Operation[] = [];
  const started = performance.now();
  const interval = 1000 / perSecond;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, client) => {
      for (let i = client; i < total; i += concurrency) {
        const due = started + i * interval;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        // A timer may fire up to a millisecond early (it counts from the event loop's cached clock); an
        // operation sent early counts from when it was sent, so no latency comes out below zero.
        const sent = performance.now();
        await operation(i);
        operations.push(since(Math.min(due, sent)));
      }
    }),
  );
  return summary(total, started, operations);
}
