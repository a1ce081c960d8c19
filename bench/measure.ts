// Runs `operation` `total` times with `concurrency` in flight and reports operations per second, and the
// latency of each operation (p50, p99) in milliseconds.
export interface Measurement {
  perSecond: number;
  p50: number;
  p99: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export async function measure(
  total: number,
  concurrency: number,
  operation: (i: number) => Promise<unknown>,
): Promise<Measurement> {
  let next = 0;
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const began = performance.now();
        await operation(i);
        latencies.push(performance.now() - began);
      }
    }),
  );
  const perSecond = total / ((performance.now() - started) / 1000);
  latencies.sort((a, b) => a - b);
  return { perSecond, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

export async function throughput(total: number, concurrency: number, operation: (i: number) => Promise<unknown>) {
  return (await measure(total, concurrency, operation)).perSecond;
}

export const ms = (value: number) => `${value.toFixed(1)} ms`;
