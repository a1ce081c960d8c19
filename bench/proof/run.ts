// `npm run proof`: starts Engram with two replicas of the gateway and of cards on private PostgreSQL,
// NATS and Redis, runs the scenarios (scenarios.ts) one after another under the learners' load (scenario-run.ts:
// each checked, after it, for every acknowledged review stored, and counted by organizations, exactly once), and
// returns one row per scenario, then one per attack. After the load alone, the direct-PostgreSQL review baseline
// (review-submit's) runs at the same pace on the same database.
import { randomUUID } from 'node:crypto';
import { closeStores, createStores } from '@engram/cards/db';
import { recordReview } from '@engram/cards/review/record-review';
import { RATINGS } from '@engram/contracts/learning';
import { measurePaced } from '../measure.ts';
import { type AttackResult, runAttacks } from './attacks.ts';
import { startInfrastructure } from './infra.ts';
import { type Learner, setUpLearners } from './learners.ts';
import { Ledger } from './ledger.ts';
import { LearnerLoad, type SentReview } from './load.ts';
import { PROOF_NICENESS, runAhead } from './priority.ts';
import { type RowContext, runScenario } from './scenario-run.ts';
import { chooseScenarios, SCENARIOS } from './scenarios.ts';
import { type ProofStack, startProofStack } from './stack.ts';
import type { Row } from './table.ts';

export interface ProofOptions {
  learners: number;
  /** Operations offered per second by all learners together. */
  perSecond: number;
  /** How long each scenario's load runs at least. */
  scenarioMs: number;
  ownCards: number;
  deckCards: number;
  /** Inputs the fuzzer tries per procedure in the attacks. */
  fuzzRuns: number;
  /**
   * Whether a hostile row breaks when the others' review p99 passes its bound. The full run on a machine of its
   * own: yes. The short run inside `npm test` shares the machine with the other test files, whose load moves any
   * p99 on two cores: the slowdown is shown, and every other promise kept.
   */
  slowdownEnforced: boolean;
  /** Only the scenarios (and attacks) whose names include one of these (all when empty). */
  only?: string[];
  /** Each finished row, as it comes. */
  onRow?: (row: Row) => void;
}

export const SHORT: ProofOptions = {
  learners: 8,
  perSecond: 16,
  scenarioMs: 6_000,
  ownCards: 40,
  deckCards: 6,
  fuzzRuns: 12,
  slowdownEnforced: false,
};
export const FULL: ProofOptions = {
  learners: 32,
  perSecond: 60,
  scenarioMs: 20_000,
  ownCards: 200,
  deckCards: 20,
  fuzzRuns: 40,
  slowdownEnforced: true,
};

/** The review transaction straight on cards' database, at the load's pace, for as many reviews as it made. */
async function baseline(databaseUrl: string, learners: Learner[], total: number, perSecond: number) {
  const stores = createStores(databaseUrl, { poolSize: learners.length });
  const reviews: SentReview[] = [];
  const turns = learners.map(() => 0);
  try {
    const measured = await measurePaced(total, learners.length, perSecond, async (i) => {
      const who = i % learners.length;
      const learner = learners[who] as Learner;
      const turn = (turns[who] ?? 0) + 1;
      turns[who] = turn;
      const itemId = learner.ownItems[turn % learner.ownItems.length] as string;
      const reviewId = randomUUID();
      const review = { reviewId, userId: learner.userId, itemId, copy: false, acknowledged: false };
      reviews.push(review);
      await recordReview(stores.pool, learner.userId, {
        id: itemId,
        rating: RATINGS[i % 4]!,
        reviewId,
        durationMs: 2500,
      });
      review.acknowledged = true;
    });
    return { measured, reviews };
  } finally {
    await closeStores(stores);
  }
}

export const ATTACK_PROMISE = 'nothing gets through, nothing changes, no 5xx';

function attackRow(attack: AttackResult): Row {
  return {
    scenario: `attack: ${attack.name}`,
    promise: ATTACK_PROMISE,
    requests: attack.attempts,
    failures: 0,
    lost: 0,
    duplicated: 0,
    breaches: attack.breaches.length,
    p50: attack.p50,
    p99: attack.p99,
    held: attack.breaches.length === 0,
    problems: attack.breaches.slice(0, 10),
    failed: [],
  };
}

async function baselineRow(stack: ProofStack, ledger: Ledger, learners: Learner[], total: number, perSecond: number) {
  const direct = await baseline(stack.cardsDatabaseUrl, learners, total, perSecond);
  ledger.record(direct.reviews);
  const tally = await ledger.check();
  const problems = [
    ...(tally.lost + tally.duplicated > 0 ? [`${tally.lost} lost, ${tally.duplicated} duplicated`] : []),
  ];
  return {
    scenario: 'baseline: the review transaction straight on PostgreSQL',
    promise: 'nothing lost or duplicated',
    requests: total,
    failures: 0,
    lost: tally.lost,
    duplicated: tally.duplicated,
    p50: direct.measured.p50,
    p99: direct.measured.p99,
    held: problems.length === 0 && tally.details.length === 0,
    problems: [...problems, ...tally.details.slice(0, 10)],
    failed: [],
  } satisfies Row;
}

/**
 * How long the learners' load runs, unmeasured, before the first row. A stack in service is warm; a fresh one's
 * first seconds under the load cost each call several times a warm one's while V8 compiles its paths (on two
 * cores, measured: calls of 0.4-2 s for the load's first 4-5 s, then of 15-70 ms), which beside CI's other test
 * files passed the gateway's 3 s deadlines. A replica starting cold under load is the rolling restart's row.
 */
export const WARM_UP_MS = 10_000;

/** The warm-up: the reviews it sends are kept (and checked with the first row's), its answers not judged. */
async function warmUp(context: RowContext) {
  const warm = await context.load.run(context.perSecond, Promise.resolve(), WARM_UP_MS);
  context.ledger.record(warm.reviews);
  const slowest = Math.max(0, ...warm.operations.map((operation) => operation.ms));
  console.log(
    `[proof] warm-up: ${warm.requests} requests in ${WARM_UP_MS / 1000} s, ${warm.failures} failed, the slowest ${Math.round(slowest)} ms (not judged)`,
  );
}

/**
 * Runs the scenarios `options.only` chooses (all by default; none matched is an error, thrown before anything
 * starts), one row each, then the attacks.
 */
export async function runProof(options: ProofOptions): Promise<{ rows: Row[]; held: boolean }> {
  const { scenarios, attacks } = chooseScenarios(options.only ?? []);
  const priority = runAhead();
  console.log(
    priority.raised
      ? `[proof] its processes run at nice ${PROOF_NICENESS}, ahead of the rest of the machine`
      : '[proof] its processes run at the default priority (nice 0): raising it needs CAP_SYS_NICE',
  );
  const infrastructure = await startInfrastructure().catch((error: unknown) => {
    priority.restore();
    throw error;
  });
  const rows: Row[] = [];
  const add = (row: Row) => {
    rows.push(row);
    options.onRow?.(row);
  };
  try {
    const stack = await startProofStack(infrastructure);
    try {
      // One more learner per scenario, set up as the others, deletes their account while its fault is on.
      const everyone = await setUpLearners(stack.url, stack.databaseUrl, options.learners + scenarios.length, options);
      const learners = everyone.slice(0, options.learners);
      const leavers = everyone.slice(options.learners);
      const context: RowContext = {
        stack,
        infrastructure,
        load: new LearnerLoad(stack.url, learners),
        ledger: new Ledger(stack.databaseUrl),
        perSecond: options.perSecond,
        scenarioMs: options.scenarioMs,
        slowdownEnforced: options.slowdownEnforced,
      };
      await warmUp(context);
      for (const scenario of scenarios) {
        const began = performance.now();
        const { row, reviewP99, acknowledged } = await runScenario(context, scenario, leavers.shift() as Learner);
        add({ ...row, seconds: (performance.now() - began) / 1000 });
        if (scenario !== SCENARIOS[0]) continue;
        // The load alone: the others' idle reference, and the reviews the baseline makes straight on PostgreSQL.
        context.idleP99 = reviewP99;
        add(await baselineRow(stack, context.ledger, learners, acknowledged, options.perSecond));
      }
      // The attacks, on the same replicated stack once the faults are over.
      if (attacks) for (const attack of await runAttacks(stack, options.fuzzRuns)) add(attackRow(attack));
    } catch (error) {
      console.error(`[proof] the components' last lines:\n${stack.recentLines.slice(-40).join('\n')}`);
      throw error;
    } finally {
      await stack.stop();
    }
  } finally {
    await infrastructure.dispose();
    priority.restore();
  }
  return { rows, held: rows.every((row) => row.held) };
}
