// A learner's long CPU work (a simulation, a recommendation, a rescheduling plan) runs in a child process: what
// goes wrong there ends that piece of work with its reason in words, a learner's pieces run one at a time (more
// than two in hand are refused), a call given up ends its work, and the same forecast asked again is not worked
// out again.
import { DEFAULT_PARAMETERS } from '@engram/contracts/scheduler';
import { createLogger } from '@engram/kit/logger';
import { describe, expect, it } from 'vitest';
import { COMPUTE_PER_LEARNER, createCompute, DEFAULT_COMPUTE_LIMITS } from '../../src/compute/compute-pool.ts';
import { packCards } from '../../src/simulator/packed-cards.ts';
import { DEFAULT_HABITS, type SimulatedCard } from '../../src/simulator/simulate.ts';

const MB = 1024 * 1024;
const logger = createLogger({ service: 'cards-test', level: 'silent' });
const never = new AbortController().signal;

/**
 * The service's limits, but with time to spare: the worst simulation takes a few seconds on a quiet machine and
 * went past the service's 12 s beside three CPU burners (a forecast runs at a lower priority). Only the test of
 * the time limit is about time, and it sets its own.
 */
const LIMITS = { ...DEFAULT_COMPUTE_LIMITS, timeoutMs: 300_000 };

/** A learner's 10,000 cards at the worst allowed settings: the longest a simulation may take. */
const worst = (seed: number) => ({
  input: {
    cards: packCards(
      Array.from(
        { length: 10_000 },
        (_, index): SimulatedCard => ({ isNew: false, stability: 2, difficulty: 5, lastDay: 0, dueDay: index % 3 }),
      ),
    ),
    parameters: DEFAULT_PARAMETERS,
    days: 365,
    newPerDay: 9_999,
    reviewsPerDay: 9_999,
    maximumIntervalDays: 1,
    habits: DEFAULT_HABITS,
    seed,
  },
  retentions: [0.8, 0.9, 0.95],
});

describe('a forecast worked out in a child process', () => {
  it('answers the runs asked for', async () => {
    const compute = createCompute(LIMITS, logger);
    const runs = await compute.run('learner', 'simulate', () => worst(1), never);
    expect(runs).toHaveLength(3);
    expect(runs[0]?.daily).toHaveLength(365);
  });

  it('fails with a worded reason when its process uses more memory than allowed, and the next is worked out', async () => {
    const compute = createCompute({ ...LIMITS, memoryBytes: 24 * MB }, logger);
    await expect(compute.run('greedy', 'simulate', () => worst(2), never)).rejects.toThrow(
      'This forecast needed more memory than we allow one, so it was stopped.',
    );
    const roomy = createCompute(LIMITS, logger);
    expect(await roomy.run('other', 'simulate', () => worst(2), never)).toHaveLength(3);
  });

  it('fails with a worded reason when it takes longer than allowed', async () => {
    // No process starts, loads the simulator and simulates 10,000 cards within 50 ms.
    const compute = createCompute({ ...DEFAULT_COMPUTE_LIMITS, timeoutMs: 50 }, logger);
    await expect(compute.run('slow', 'simulate', () => worst(3), never)).rejects.toThrow(
      'This forecast took longer than we allow one, so it was stopped.',
    );
  });

  it('is ended when the learner gives up the call', async () => {
    const compute = createCompute(LIMITS, logger);
    const caller = new AbortController();
    const forecast = compute.run('impatient', 'simulate', () => worst(4), caller.signal);
    caller.abort(new Error('the learner left the page'));
    await expect(forecast).rejects.toThrow('the learner left the page');
  });
});

describe("one learner's forecasts", () => {
  it(`are refused past ${COMPUTE_PER_LEARNER} in hand, while another learner's are worked out`, async () => {
    const compute = createCompute({ ...LIMITS, children: 2 }, logger);
    const inHand = [
      compute.run('eager', 'simulate', () => worst(5), never),
      compute.run('eager', 'simulate', () => worst(6), never),
    ];
    await expect(compute.run('eager', 'simulate', () => worst(7), never)).rejects.toThrow(
      'A forecast of yours is still being worked out. Wait for it, then ask again.',
    );
    expect(await compute.run('patient', 'simulate', () => worst(8), never)).toHaveLength(3);
    expect((await Promise.all(inHand)).map((runs) => runs.length)).toEqual([3, 3]);
  });

  it(`asked together, are refused past ${COMPUTE_PER_LEARNER} before their cards are read`, async () => {
    const compute = createCompute({ ...LIMITS, children: 2 }, logger);
    let reads = 0;
    // Reading a learner's cards takes a while: every call arrives before the first read ends.
    const slowRead = (seed: number) => async () => {
      reads += 1;
      await new Promise((resolve) => setTimeout(resolve, 50));
      return worst(seed);
    };
    const asked = [20, 21, 22, 23].map((seed) => compute.run('flooding', 'simulate', slowRead(seed), never));
    const outcomes = await Promise.allSettled(asked);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected']);
    expect(String((outcomes[2] as PromiseRejectedResult).reason)).toContain(
      'A forecast of yours is still being worked out.',
    );
    expect(reads).toBe(COMPUTE_PER_LEARNER);
  });

  it('give their place back when reading their cards fails', async () => {
    const compute = createCompute(LIMITS, logger);
    const failing = () => Promise.reject(new Error('That preset was not found.'));
    for (let attempt = 0; attempt < COMPUTE_PER_LEARNER + 1; attempt += 1) {
      await expect(compute.run('mistaken', 'simulate', failing, never)).rejects.toThrow('That preset was not found.');
    }
    expect(await compute.run('mistaken', 'simulate', () => worst(24), never)).toHaveLength(3);
  });

  it('are not worked out again when asked again with the same inputs, even at once', async () => {
    const compute = createCompute(LIMITS, logger);
    const [first, again] = await Promise.all([
      compute.run('repeating', 'simulate', () => worst(9), never),
      compute.run('repeating', 'simulate', () => worst(9), never),
    ]);
    expect(again).toEqual(first);
    // With no process left to work anything out, the same forecast is still answered; another is not.
    compute.close();
    expect(await compute.run('repeating', 'simulate', () => worst(9), never)).toEqual(first);
    await expect(compute.run('repeating', 'simulate', () => worst(10), never)).rejects.toThrow();
  });
});

describe('the same forecast asked by two calls at once', () => {
  it('is still worked out for the second when the first gives up', async () => {
    const compute = createCompute(LIMITS, logger);
    const first = new AbortController();
    const leaving = compute.run('two-tabs', 'simulate', () => worst(11), first.signal);
    const staying = compute.run('two-tabs', 'simulate', () => worst(11), never);
    first.abort(new Error('the first tab was closed'));
    await expect(leaving).rejects.toThrow('the first tab was closed');
    expect(await staying).toHaveLength(3);
  });
});
