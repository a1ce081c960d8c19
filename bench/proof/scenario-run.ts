// One scenario's row: the learners' load runs while the fault is injected (or the hostile learner acts) and one
// more learner deletes their account; then the deletion is sent again if no attempt went through while the fault
// was on, everything kept so far is checked again (ledger.ts), the supervisor's events of the row are counted,
// and the verdict (verdict.ts) is given on that evidence alone.
import { type Operation, percentile } from '../measure.ts';
import type { ActResult } from './hostile/learner.ts';
import type { ProofInfrastructure } from './infra.ts';
import { deleteAccount, type Learner } from './learners.ts';
import type { Ledger } from './ledger.ts';
import { ATTEMPT_TIMEOUT_MS, type LearnerLoad, type LoadResult, type ReviewLatency } from './load.ts';
import { unaskedRestarts } from './restarts.ts';
import { LEAD_MS, type Scenario } from './scenarios.ts';
import type { ProofStack } from './stack.ts';
import type { Row } from './table.ts';
import { type Deletion, verdict } from './verdict.ts';
import { accountGone } from './verify.ts';

export interface RowContext {
  stack: ProofStack;
  infrastructure: ProofInfrastructure;
  load: LearnerLoad;
  ledger: Ledger;
  perSecond: number;
  scenarioMs: number;
  /** The learners' review p99 under their load alone (the load row's); none before it has run. */
  idleP99?: number;
  /** Whether a row breaks past its slowdown bound (ProofOptions.slowdownEnforced). */
  slowdownEnforced: boolean;
}

/** The row, and what the run after it needs: the learners' review p99, and how many reviews were acknowledged. */
export interface ScenarioRun {
  row: Row;
  reviewP99: number;
  acknowledged: number;
}

type Act = () => Promise<ActResult>;

// How bench-stack's request() words an attempt that got no answer in time.
const NO_ANSWER = `no answer within ${ATTEMPT_TIMEOUT_MS} ms`;
/** After a hostile learner's act, how long the others' reviews may take to be back at pace before the row ends. */
const QUIET_CAP_MS = 120_000;
/** A process that does not answer its /healthz within this is busy (its event loop held by some work). */
const BUSY_MS = 1_000;

const percentileOf = (operations: Operation[], at: number) =>
  percentile(
    [...operations].sort((a, b) => a.ms - b.ms),
    at,
  );

/**
 * The others' review p99 while idle and during the row. A hostile learner acts after a whole scenario's time of
 * the load alone, so their idle reference is taken just before (the machine's other work changes from minute to
 * minute): the reviews answered before the act; the rest are the row's. A fault's reference is the load row's.
 */
function paceOf(reviews: Operation[], actAt: number | undefined, loadRowP99: number | undefined) {
  if (actAt === undefined) {
    const row = percentileOf(reviews, 99);
    return { idle: loadRowP99 ?? row, row };
  }
  const answeredBefore = (review: Operation) => review.at + review.ms <= actAt;
  return {
    idle: percentileOf(reviews.filter(answeredBefore), 99),
    row: percentileOf(
      reviews.filter((review) => !answeredBefore(review)),
      99,
    ),
  };
}

/**
 * Quiet again: the others' latest reviews, a turn of each learner's and another, each answered within `paceMs` of
 * being sent (a learner who fell behind catches up once answers come at pace), and every process's event loop free
 * (work a call set going may go on after the call has given up).
 */
async function settled(context: RowContext, reviews: ReviewLatency[], paceMs: number): Promise<boolean> {
  const latest = reviews.slice(-2 * context.load.learners.length);
  const atPace = latest.length > 0 && latest.every((review) => review.sentMs <= paceMs);
  return atPace && (await context.stack.responsive(BUSY_MS));
}

/** The leaver's deletion: through while the fault was on, else sent again now that it is over. */
async function deletionOf(stack: ProofStack, leaver: Learner, deleted: boolean): Promise<Deletion> {
  // Unacknowledged but done (its answer lost) is a deletion all the same.
  if (deleted || (await accountGone(stack.databaseUrl, leaver.userId))) return 'during the fault';
  if ((await deleteAccount(stack.url, leaver)) || (await accountGone(stack.databaseUrl, leaver.userId))) {
    return 'after the fault';
  }
  return 'never';
}

/** The load while the fault is on (or the act goes on) and the leaver deletes their account, and how each ended. */
async function underLoad(context: RowContext, scenario: Scenario, act: Act | undefined, leaver: Learner) {
  const { stack, infrastructure, load } = context;
  const lead = act ? context.scenarioMs : LEAD_MS;
  let actAt = Number.POSITIVE_INFINITY;
  const started = new Promise((resolve) => setTimeout(resolve, lead)).then(() => {
    actAt = performance.timeOrigin + performance.now();
  });
  const recovered = started.then(() => scenario.fault?.(stack, infrastructure));
  const acted = started.then(() => act?.());
  const deletion = started.then(() => deleteAccount(stack.url, leaver));
  // A hostile learner's row runs on until it is quiet again: what the act set going counts.
  const bound = scenario.slowdownBound;
  const quiet =
    bound === undefined
      ? undefined
      : {
          settled: (reviews: ReviewLatency[]) =>
            settled(context, reviews, bound * paceOf(reviews, actAt, context.idleP99).idle),
          capMs: QUIET_CAP_MS,
        };
  const minMs = lead + context.scenarioMs - LEAD_MS;
  const result = await load.run(context.perSecond, Promise.allSettled([recovered, acted, deletion]), minMs, quiet);
  return {
    result,
    actAt: act ? actAt : undefined,
    faultAt: actAt,
    faultError: await recovered.then(
      () => undefined,
      (error: Error) => error.message,
    ),
    ended: await acted.catch((error: Error) => ({ outcome: '', problems: [`the act failed: ${error.message}`] })),
    deleted: await deletionOf(stack, leaver, await deletion),
  };
}

/**
 * When a row that restarted something had failed requests: each step of the restarts and the failures between
 * them, in seconds from the fault's start, so that a failure is read beside what the restart was doing then.
 */
function timeline(steps: { at: number; what: string }[], failedAt: number[], faultAt: number): string[] {
  if (steps.length === 0 || failedAt.length === 0) return [];
  const since = (at: number) => `+${((at - faultAt) / 1000).toFixed(1)} s`;
  const parts: string[] = [];
  const failures = [...failedAt].sort((a, b) => a - b);
  const failuresUntil = (end: number) => {
    const run = failures.splice(0, failures.filter((at) => at < end).length);
    if (run.length === 1) parts.push(`${since(run[0] as number)} 1 request failed`);
    else if (run.length > 1) {
      parts.push(`${since(run[0] as number)}…${since(run.at(-1) as number)} ${run.length} requests failed`);
    }
  };
  for (const { at, what } of steps) {
    failuresUntil(at);
    parts.push(`${since(at)} ${what}`);
  }
  failuresUntil(Number.POSITIVE_INFINITY);
  return [`when (from the fault's start): ${parts.join('; ')}`];
}

/** A broken row's failed requests, as the stack logged them: its first errors during the row, shortened. */
function loggedDuring(errorLines: { at: number; line: string }[], since: number): string[] {
  return errorLines
    .filter(({ at }) => at >= since)
    .slice(0, LOGGED_ERRORS_SHOWN)
    .map(({ line }) => `logged: ${line.length > LOGGED_LINE_CHARS ? `${line.slice(0, LOGGED_LINE_CHARS)}…` : line}`);
}

const LOGGED_ERRORS_SHOWN = 5;
const LOGGED_LINE_CHARS = 400;

function reviewCounts(result: LoadResult, learners: Learner[]) {
  const acknowledged = result.reviews.filter((review) => review.acknowledged);
  const reviewed = new Set(acknowledged.map((review) => review.userId));
  return {
    reviewsSent: result.reviews.length,
    reviewsAcknowledged: acknowledged.length,
    learnersWithoutAcknowledgedReview: learners.filter((learner) => !reviewed.has(learner.userId)).length,
  };
}

/** The row of a hostile learner who could not even be readied (their import of what they bring failed). */
const unready = (scenario: Scenario, error: Error): ScenarioRun => ({
  row: {
    scenario: scenario.name,
    promise: scenario.promise,
    requests: 0,
    failures: 0,
    lost: 0,
    duplicated: 0,
    p50: 0,
    p99: 0,
    held: false,
    problems: [`the hostile learner could not be readied: ${error.message}`],
    failed: [],
  },
  reviewP99: 0,
  acknowledged: 0,
});

export async function runScenario(context: RowContext, scenario: Scenario, leaver: Learner): Promise<ScenarioRun> {
  const readying = performance.now();
  let act: Act | undefined;
  try {
    act = await scenario.hostile?.ready(context.stack);
  } catch (error) {
    return unready(scenario, error as Error);
  }
  const readySeconds = act ? (performance.now() - readying) / 1000 : undefined;
  const eventsBefore = context.stack.events.length;
  const stepsBefore = context.stack.steps.length;
  const rowBegan = performance.timeOrigin + performance.now();
  const { result, actAt, faultAt, faultError, ended, deleted } = await underLoad(context, scenario, act, leaver);
  if (deleted !== 'never') context.ledger.erased(leaver.userId);
  context.ledger.record(result.reviews);
  const tally = await context.ledger.check();
  const pace = paceOf(result.reviewLatencies, actAt, context.idleP99);
  const slowdown = pace.row / pace.idle;
  const restarts = unaskedRestarts(context.stack.events.slice(eventsBefore), scenario.kills ?? []);
  const quietProblem = `the others' reviews were not back at pace ${QUIET_CAP_MS / 1000} s after it`;
  const judged = verdict({
    promise: scenario.promise,
    answersWithinDeadlines: scenario.answersWithinDeadlines ?? false,
    failures: result.failures,
    unanswered: [...result.failureReasons.keys()].some((reason) => reason.startsWith(NO_ANSWER)),
    lost: tally.lost,
    duplicated: tally.duplicated,
    faultError,
    deletion: deleted,
    ...reviewCounts(result, context.load.learners),
    slowdown,
    ...(context.slowdownEnforced && { slowdownBound: scenario.slowdownBound }),
    restarts,
    actProblems: [...(ended?.problems ?? []), ...(result.quiet === false ? [quietProblem] : [])],
    details: tally.details,
  });
  const promised = [
    scenario.promise,
    ...(scenario.answersWithinDeadlines ? ['every request answered'] : []),
    ...(scenario.hostile ? [scenario.hostile.expected] : []),
  ];
  const row: Row = {
    scenario: scenario.name,
    promise: promised.join(', '),
    requests: result.requests,
    failures: result.failures,
    lost: tally.lost,
    duplicated: tally.duplicated,
    p50: percentileOf(result.operations, 50),
    p99: percentileOf(result.operations, 99),
    slowdown,
    restarts,
    held: judged.held,
    problems: judged.problems,
    failed: [
      ...[...result.failureReasons].slice(0, 5).map(([reason, n]) => `${n} × ${reason}`),
      ...timeline(context.stack.steps.slice(stepsBefore), result.failedAt, faultAt),
      // A broken row shows what the stack logged as errors meanwhile: the cause of a failed request, or of an act's 5xx.
      ...(judged.held ? [] : loggedDuring(context.stack.errorLines, rowBegan)),
      ...(deleted === 'after the fault'
        ? ['the account deletion failed while the fault was on, then went through']
        : []),
    ],
    ...(ended?.outcome && { outcome: ended.outcome }),
    ...(readySeconds !== undefined && { readySeconds }),
  };
  return { row, reviewP99: pace.row, acknowledged: result.reviews.filter((review) => review.acknowledged).length };
}
