// Runs `operation` `total` times with `concurrency` in flight and reports operations per second.
export async function throughput(total: number, concurrency: number, operation: (i: number) => Promise<unknown>) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await operation(next++);
    }),
  );
  return total / ((performance.now() - started) / 1000);
}
