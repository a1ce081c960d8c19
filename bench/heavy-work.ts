// Heavy work beside learners' reviews (issue 41's bulkheads). One learner with 10,000 cards at the worst allowed
// settings (a maximum interval of 1 day, daily limits of 9,999) asks for workload simulations: each must answer
// within 2 s through the gateway (settings.simulate, worked out in a child process of cards within a bounded
// number of simulated reviews). Then eight other learners review their cards at a steady pace, first alone (their
// idle p99) and then while a heavy learner floods cards with simulations, each with other retentions so that each is
// worked out, several at once (the per-user forecast limit lifted, so the flood is as many learners' as it takes; a
// learner's third forecast in hand is refused before their cards are read): their p99 during the flood ÷ their idle
// p99 must stay ≤ 2.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { setPriority } from 'node:os';
import { COMPUTE_NICENESS } from '@engram/cards/compute/compute-pool';
import { RATINGS } from '@engram/contracts/learning';
import { type BenchStack, startBenchStack, trpc } from './bench-stack.ts';
import { gcSummary, slowestThroughPauses } from './gc-pauses.ts';
import { measurePaced, ms, ratioAgainst } from './measure.ts';

const HEAVY_CARDS = 10_000;
const SIMULATION_BOUND_MS = 2_000;
const REVIEWERS = 8;
const REVIEWS_PER_REVIEWER = 60;
const REVIEWS_PER_SECOND = 16;
const FLOODERS = 4;
const P99_TARGET = { atMost: 2 };

interface Learner {
  cookie: string;
  items: string[];
}

async function reviewer(stack: BenchStack, index: number): Promise<Learner> {
  const { cookie } = await stack.signUp(`reviewer-${index}`);
  const cards = Array.from({ length: REVIEWS_PER_REVIEWER * 3 }, (_, i) => ({
    front: `front ${i}`,
    back: `back ${i}`,
  }));
  await trpc(stack.url, cookie, 'cards.createMany', { cards }, 'POST');
  await trpc(stack.url, cookie, 'settings.updatePreset', { newPerDay: 9999 }, 'POST');
  const due = (await trpc(stack.url, cookie, 'cards.listDue')) as {
    result: { data: { items: { id: string }[] } };
  };
  return { cookie, items: due.result.data.items.map((item) => item.id) };
}

/** A learner with HEAVY_CARDS cards at the worst settings a learner may choose. */
async function heavyLearner(stack: BenchStack, index: number): Promise<string> {
  const { cookie } = await stack.signUp(`heavy-${index}`);
  for (let made = 0; made < HEAVY_CARDS; made += 500) {
    const cards = Array.from({ length: 500 }, (_, i) => ({ front: `word ${made + i}`, back: `meaning ${made + i}` }));
    await trpc(stack.url, cookie, 'cards.createMany', { cards }, 'POST');
  }
  await trpc(stack.url, cookie, 'settings.update', { maximumIntervalDays: 1 }, 'POST');
  await trpc(stack.url, cookie, 'settings.updatePreset', { newPerDay: 9999, reviewsPerDay: 9999 }, 'POST');
  return cookie;
}

/** Reviews by the reviewers, each of its own cards, at a steady pace; `offset` picks cards not reviewed yet. */
function reviews(stack: BenchStack, learners: Learner[], offset: number) {
  return measurePaced(REVIEWERS * REVIEWS_PER_REVIEWER, REVIEWERS, REVIEWS_PER_SECOND, (i) => {
    const learner = learners[i % REVIEWERS] as Learner;
    const id = learner.items[offset + Math.floor(i / REVIEWERS)];
    const input = { id, rating: RATINGS[i % 4], reviewId: randomUUID(), durationMs: 2500 };
    return trpc(stack.url, learner.cookie, 'cards.review', input, 'POST');
  });
}

export async function heavyWork(adminUrl: string): Promise<void> {
  // The forecast limit (30 a minute per learner) is lifted: the flood stands for many heavy learners at once.
  const stack = await startBenchStack(adminUrl, { TRPC_RATE_LIMIT_FORECAST_PER_USER: '100000' });
  try {
    const heavy = await heavyLearner(stack, 0);
    const learners = await Promise.all(Array.from({ length: REVIEWERS }, (_, index) => reviewer(stack, index)));

    // Each with other retentions, so none is answered from the cache.
    const simulations: number[] = [];
    for (let run = 0; run < 3; run += 1) {
      const desiredRetentions = [0.8, 0.9, 0.95].map((retention) => retention - run * 0.01);
      const started = performance.now();
      await trpc(stack.url, heavy, 'settings.simulate', { desiredRetentions, days: 365 });
      simulations.push(performance.now() - started);
    }
    const slowest = Math.max(...simulations);
    console.log(
      `settings.simulate, ${HEAVY_CARDS.toLocaleString('en')} cards at the worst allowed settings, 365 days × 3 ` +
        `retentions, through the gateway: ${simulations.map(ms).join(', ')} (slowest ÷ ${SIMULATION_BOUND_MS} ms: ` +
        `${ratioAgainst(slowest / SIMULATION_BOUND_MS, { atMost: 1 })})`,
    );

    const idleFrom = Date.now();
    const idle = await reviews(stack, learners, 0);
    const idleTo = Date.now();
    let flooding = true;
    let forecasts = 0;
    let refused = 0;
    const refusals = new Set<string>();
    const flood = Array.from({ length: FLOODERS }, async (_, flooder) => {
      for (let run = 0; flooding; run += 1) {
        const retention = 0.7 + ((flooder * 61 + run) % 250) / 1000;
        // Other retentions each time: none is answered from the cache.
        const input = { desiredRetentions: [retention, 0.9, 0.95], days: 365 };
        const refusal = await trpc(stack.url, heavy, 'settings.simulate', input).then(
          () => {
            forecasts += 1;
          },
          (error: unknown) => {
            refused += 1;
            refusals.add(String(error).slice(0, 200));
            return error;
          },
        );
        // Refused (a forecast of theirs still worked out), a client waits a moment before asking again.
        if (refusal) await new Promise((resolve) => setTimeout(resolve, 250));
      }
    });
    const duringFrom = Date.now();
    const during = await reviews(stack, learners, REVIEWS_PER_REVIEWER);
    const duringTo = Date.now();
    flooding = false;
    await Promise.all(flood);
    console.log(
      `other learners' cards.review (${REVIEWERS} learners, ${REVIEWS_PER_SECOND}/s): idle p50 ${ms(idle.p50)}, ` +
        `p99 ${ms(idle.p99)}; during ${FLOODERS} flooders' simulations (${forecasts} answered, ` +
        `${refused} refused) p50 ${ms(during.p50)}, p99 ${ms(during.p99)}`,
    );
    for (const refusal of refusals) console.log(`  refused: ${refusal}`);
    // A p99 of a few hundred reviews is its few slowest: say whether a garbage collection held them up.
    for (const [phase, result, from, to] of [
      ['idle', idle, idleFrom, idleTo],
      ['during the flood', during, duringFrom, duringTo],
    ] as const) {
      const pauses = stack.gcPauses(from, to);
      console.log(
        `  pauses ${phase}: ${gcSummary(pauses)}; ${slowestThroughPauses(result.slowest, pauses, 'reviews')}`,
      );
    }
    console.log(`their p99 during the flood ÷ idle: ${ratioAgainst(during.p99 / idle.p99, P99_TARGET)}`);

    // The floor this machine sets: the same reviews beside a process that only burns one core at the forecasts'
    // niceness, running none of our code. What the flood costs above it is ours; the floor is the machine's.
    const burner = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
    if (burner.pid !== undefined) setPriority(burner.pid, COMPUTE_NICENESS);
    let beside: Awaited<ReturnType<typeof reviews>>;
    try {
      beside = await reviews(stack, learners, REVIEWS_PER_REVIEWER * 2);
    } finally {
      burner.kill('SIGKILL');
    }
    console.log(
      `beside one core burnt at nice ${COMPUTE_NICENESS} (no work of ours): p50 ${ms(beside.p50)}, p99 ${ms(beside.p99)}; ` +
        `÷ idle: ${(beside.p99 / idle.p99).toFixed(2)}; the flood's p99 ÷ this floor: ${(during.p99 / beside.p99).toFixed(2)}`,
    );
  } finally {
    await stack.stop();
  }
}
