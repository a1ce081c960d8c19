// `npm run proof`: starts Engram with two replicas of the gateway and of cards on private PostgreSQL,
// NATS and Redis, runs the scenarios (scenarios.ts) one after another under the learners' load, checks
// after each that every acknowledged review was stored, and counted by organizations, exactly once, and
// returns one row per scenario. The direct-PostgreSQL review baseline (review-submit's) runs beside the
// load, at the same pace, on the same database.
import { randomUUID } from 'node:crypto';
import { closeStores, createStores } from '@engram/cards/db';
import { recordReview } from '@engram/cards/review/record-review';
import { RATINGS } from '@engram/contracts/learning';
import { measurePaced, type Operation, percentile } from '../measure.ts';
import { type AttackResult, runAttacks } from './attacks.ts';
import { startInfrastructure } from './infra.ts';
import { deleteAccount, type Learner, setUpLearners } from './learners.ts';
import { type Acknowledged, ATTEMPT_TIMEOUT_MS, LearnerLoad } from './load.ts';
import { LEAD_MS, SCENARIOS } from './scenarios.ts';
import { startProofStack } from './stack.ts';
import type { Row } from './table.ts';
import { verdict } from './verdict.ts';
import { accountGone, verifyErasures, verifyReviews } from './verify.ts';

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
};
export const FULL: ProofOptions = {
  learners: 32,
  perSecond: 60,
  scenarioMs: 20_000,
  ownCards: 200,
  deckCards: 20,
  fuzzRuns: 40,
};

// How bench-stack's request() words an attempt that got no answer in time.
const NO_ANSWER = `no answer within ${ATTEMPT_TIMEOUT_MS} ms`;

function latencies(operations: Operation[]) {
  const sorted = [...operations].sort((a, b) => a.ms - b.ms);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
}

async function baseline(databaseUrl: string, learners: Learner[], total: number, perSecond: number) {
  const stores = createStores(databaseUrl, { poolSize: learners.length });
  const acknowledged: Acknowledged[] = [];
  const turns = learners.map(() => 0);
  try {
    const measured = await measurePaced(total, learners.length, perSecond, async (i) => {
      const who = i % learners.length;
      const learner = learners[who] as Learner;
      const turn = (turns[who] ?? 0) + 1;
      turns[who] = turn;
      const itemId = learner.ownItems[turn % learner.ownItems.length] as string;
      const reviewId = randomUUID();
      await recordReview(stores.pool, learner.userId, {
        id: itemId,
        rating: RATINGS[i % 4]!,
        reviewId,
        durationMs: 2500,
      });
      acknowledged.push({ reviewId, userId: learner.userId, itemId, copy: false });
    });
    return { measured, acknowledged };
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
    notes: attack.breaches.slice(0, 10),
  };
}

export async function runProof(options: ProofOptions): Promise<{ rows: Row[]; held: boolean }> {
  const infrastructure = await startInfrastructure();
  const rows: Row[] = [];
  const add = (row: Row) => {
    rows.push(row);
    options.onRow?.(row);
  };
  try {
    const stack = await startProofStack(infrastructure);
    try {
      const chosen = (name: string) => !options.only?.length || options.only.some((part) => name.includes(part));
      const scenarios = SCENARIOS.filter((scenario) => chosen(scenario.name));
      // One more learner per scenario, set up as the others, deletes their account while its fault is on.
      const everyone = await setUpLearners(stack.url, stack.databaseUrl, options.learners + scenarios.length, options);
      const learners = everyone.slice(0, options.learners);
      const leavers = everyone.slice(options.learners);
      const load = new LearnerLoad(stack.url, learners);
      const all: Acknowledged[] = [];
      const erased: string[] = [];
      let before = { lost: 0, duplicated: 0 };
      const verify = async () => {
        const reviews = await verifyReviews(stack.databaseUrl, all);
        const erasures = await verifyErasures(stack.databaseUrl, erased);
        return {
          lost: reviews.lost + erasures.lost,
          duplicated: reviews.duplicated + erasures.duplicated,
          details: [...reviews.details, ...erasures.details],
        };
      };
      for (const scenario of scenarios) {
        const fault = scenario.fault;
        const started = new Promise((resolve) => setTimeout(resolve, LEAD_MS));
        const recovered = fault ? started.then(() => fault(stack, infrastructure)) : Promise.resolve();
        const leaver = leavers.shift() as Learner;
        const deletion = started.then(() => deleteAccount(stack.url, leaver));
        const result = await load.run(options.perSecond, Promise.all([recovered, deletion]), options.scenarioMs);
        const faultError = await recovered.then(
          () => undefined,
          (error: unknown) => (error as Error).message,
        );
        const deleted = await deletion;
        // Unacknowledged but done (its answer lost) is a deletion all the same: it must reach everyone.
        if (deleted || (await accountGone(stack.databaseUrl, leaver.userId))) erased.push(leaver.userId);
        all.push(...result.acknowledged);
        const tally = await verify();
        const lost = tally.lost - before.lost;
        const duplicated = tally.duplicated - before.duplicated;
        before = tally;
        const unanswered = [...result.failureReasons.keys()].some((reason) => reason.startsWith(NO_ANSWER));
        const judged = verdict({
          promise: scenario.promise,
          answersWithinDeadlines: scenario.answersWithinDeadlines ?? false,
          failures: result.failures,
          unanswered,
          lost,
          duplicated,
          faultError,
          deletionAcknowledged: deleted,
          details: tally.details,
        });
        add({
          scenario: scenario.name,
          promise: scenario.answersWithinDeadlines ? `${scenario.promise}, every request answered` : scenario.promise,
          requests: result.requests,
          failures: result.failures,
          lost,
          duplicated,
          ...latencies(result.operations),
          held: judged.held,
          notes: [
            ...judged.problems,
            ...[...result.failureReasons].slice(0, 5).map(([reason, n]) => `${n} × ${reason}`),
          ],
        });
        if (scenario.name === 'load') {
          const reviews = result.acknowledged.length;
          const direct = await baseline(stack.cardsDatabaseUrl, learners, reviews, options.perSecond);
          all.push(...direct.acknowledged);
          const tallyAfter = await verify();
          add({
            scenario: 'baseline: the review transaction straight on PostgreSQL',
            promise: 'nothing lost or duplicated',
            requests: reviews,
            failures: 0,
            lost: tallyAfter.lost - before.lost,
            duplicated: tallyAfter.duplicated - before.duplicated,
            p50: direct.measured.p50,
            p99: direct.measured.p99,
            held: tallyAfter.lost === before.lost && tallyAfter.duplicated === before.duplicated,
            notes: tallyAfter.details.slice(0, 10),
          });
          before = tallyAfter;
        }
      }
      // The attacks, on the same replicated stack once the faults are over.
      if (chosen('attack')) for (const attack of await runAttacks(stack, options.fuzzRuns)) add(attackRow(attack));
    } catch (error) {
      console.error(`[proof] the components' last lines:\n${stack.recentLines.slice(-40).join('\n')}`);
      throw error;
    } finally {
      await stack.stop();
    }
  } finally {
    await infrastructure.dispose();
  }
  return { rows, held: rows.every((row) => row.held) };
}
