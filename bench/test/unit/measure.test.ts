import { describe, expect, it } from 'vitest';
import { closedLoopWait, type Measurement, measure, measurePaced, meets, ratioAgainst } from '../../measure.ts';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('measuring latency', () => {
  // One client, an operation due every 10 ms; the first takes 35 ms, the others answer at once.
  const firstStalls = (i: number) => (i === 0 ? pause(35) : Promise.resolve());

  it('counts a paced operation from when it was due, so a stall also counts against those it held up', async () => {
    const paced = await measurePaced(5, 1, 100, firstStalls);
    // Due at 10, 20 and 30 ms, sent only after 35 ms: at least 25, 15 and 5 ms late.
    expect(paced.p99).toBeGreaterThanOrEqual(34);
    expect(paced.p50).toBeGreaterThanOrEqual(14);
  });

  it('counts an operation sent as soon as the previous answered from when it was sent', async () => {
    const closed = await measure(5, 1, firstStalls);
    expect(closed.p99).toBeGreaterThanOrEqual(34);
    expect(closed.p50).toBeLessThan(14);
  });

  it('never counts a latency below zero, though a timer may fire a little early', async () => {
    // Answered at once, each latency is how late it was sent, or 0 when the timer fired early.
    const paced = await measurePaced(100, 1, 100, () => Promise.resolve());
    expect(paced.p50).toBeGreaterThanOrEqual(0);
  });

  it('offers operations no faster than the rate asked for', async () => {
    const paced = await measurePaced(20, 4, 200, () => Promise.resolve());
    expect(paced.perSecond).toBeLessThanOrEqual(220);
  });

  it('keeps the operations at or over the p99, each with when it began on the epoch clock', async () => {
    const before = Date.now();
    // 100 operations, one at a time; the 50th stalls for 30 ms, the others answer at once.
    const closed = await measure(100, 1, (i) => (i === 49 ? pause(30) : Promise.resolve()));
    expect(closed.slowest.length).toBeGreaterThanOrEqual(1);
    const [stalled] = closed.slowest.slice(-1);
    expect(stalled?.ms).toBeGreaterThanOrEqual(29);
    // On Date.now()'s clock (performance.timeOrigin + performance.now() may differ from it by a little):
    // it began after the test did, and at least the stall before the end.
    expect(stalled?.at).toBeGreaterThanOrEqual(before - 5);
    expect(stalled?.at).toBeLessThanOrEqual(Date.now() - 20);
    for (const operation of closed.slowest) expect(operation.ms).toBeGreaterThanOrEqual(closed.p99);
  });
});

describe("what a closed loop of clients allows (Little's law)", () => {
  const measured = (perSecond: number, p99: number): Measurement => ({ perSecond, p50: 0, p99, slowest: [] });

  it('has each of 32 always-waiting clients wait 32 / throughput on average', () => {
    expect(closedLoopWait(32, measured(800, 60))).toBeCloseTo(40);
  });

  it('agrees with a closed loop actually run: its mean wait lies between its median and its slowest', async () => {
    const run = await measure(20, 1, () => pause(10));
    expect(closedLoopWait(1, run)).toBeGreaterThanOrEqual(run.p50 - 1);
    expect(closedLoopWait(1, run)).toBeLessThan(run.p99 + 5);
  });
});

describe('the targets, ratios of two measurements of the same run', () => {
  it('meets a lower bound at or above it, and says when one is missed', () => {
    expect(ratioAgainst(0.45, { atLeast: 0.4 })).toBe('0.45 (target ≥ 0.40: met)');
    expect(ratioAgainst(0.4, { atLeast: 0.4 })).toBe('0.40 (target ≥ 0.40: met)');
    expect(ratioAgainst(0.39, { atLeast: 0.4 })).toBe('0.39 (target ≥ 0.40: MISSED)');
  });

  it('meets an upper bound at or below it', () => {
    expect(meets(2.5, { atMost: 2.5 })).toBe(true);
    expect(ratioAgainst(3.1, { atMost: 3 })).toBe('3.10 (target ≤ 3.00: MISSED)');
  });
});
