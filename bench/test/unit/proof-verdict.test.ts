// The proof's rules, each shown to break a row when the evidence it guards is missing or wrong: the evidence here
// is made up (no stack), as a run would report it when the thing guarded had failed.
import type { SupervisorEvent } from '@engram/local/supervisor';
import { describe, expect, it } from 'vitest';
import type { SentReview } from '../../proof/load.ts';
import { unaskedRestarts } from '../../proof/restarts.ts';
import { chooseScenarios, SCENARIOS } from '../../proof/scenarios.ts';
import { type ScenarioEvidence, verdict } from '../../proof/verdict.ts';
import { type ReviewFacts, tallyReviews } from '../../proof/verify.ts';

/** What a run reports of a fault row in which everything went well. */
const sound: ScenarioEvidence = {
  promise: 'nothing lost or duplicated',
  answersWithinDeadlines: false,
  failures: 3,
  unanswered: false,
  lost: 0,
  duplicated: 0,
  deletion: 'during the fault',
  reviewsSent: 60,
  reviewsAcknowledged: 58,
  learnersWithoutAcknowledgedReview: 0,
  slowdown: 4.2,
  restarts: 0,
  actProblems: [],
  details: [],
};

const judged = (changes: Partial<ScenarioEvidence>) => verdict({ ...sound, ...changes });

describe("the proof's verdict on a scenario", () => {
  it('holds a row whose evidence is sound', () => {
    expect(verdict(sound)).toEqual({ held: true, problems: [] });
  });

  it('breaks a row whose account deletion never went through, during the fault or after it', () => {
    const never = judged({ deletion: 'never' });
    expect(never.held).toBe(false);
    expect(never.problems).toEqual([
      'the account deletion never went through: every attempt failed during the fault and after it',
    ]);
    // Sent again once the fault is over and verified erased: what this promise allows.
    expect(judged({ deletion: 'after the fault' })).toEqual({ held: true, problems: [] });
    // Where no request may fail, a deletion must go through while the fault is on.
    expect(judged({ promise: 'no failed request', failures: 0, deletion: 'after the fault' }).held).toBe(false);
  });

  it('breaks a row in which nothing, or too little, was acknowledged', () => {
    expect(judged({ reviewsAcknowledged: 0 }).problems).toEqual([
      'only 0 of the 60 reviews sent were acknowledged (at least 30 must be, or the row proves nothing)',
    ]);
    expect(judged({ reviewsSent: 0, reviewsAcknowledged: 0 }).held).toBe(false);
    expect(judged({ reviewsAcknowledged: 29 }).held).toBe(false);
    expect(judged({ learnersWithoutAcknowledgedReview: 1 }).problems).toEqual(['1 learner had no review acknowledged']);
  });

  it('breaks a row that slowed the other learners beyond its bound, and only shows the slowdown of a fault', () => {
    expect(judged({ slowdownBound: 2, slowdown: 2.5 }).problems).toEqual([
      "the other learners' review p99 was 2.5 × their idle p99 (at most 2 ×)",
    ]);
    expect(judged({ slowdownBound: 2, slowdown: 1.9 }).held).toBe(true);
    expect(judged({ slowdown: 40 }).held).toBe(true);
  });

  it('breaks a row in which a process restarted unasked', () => {
    expect(judged({ restarts: 1 }).problems).toEqual(['1 process restarted without being asked to']);
  });

  it("breaks a row whose hostile learner's act did not end as promised", () => {
    expect(judged({ actProblems: ['the import never ended'] }).problems).toEqual(['the import never ended']);
  });

  it('breaks a row with a failed request where none may fail, or an unanswered one where all must be answered', () => {
    expect(judged({ promise: 'no failed request' }).problems).toEqual(['3 requests failed']);
    expect(judged({ answersWithinDeadlines: true, unanswered: true }).held).toBe(false);
  });
});

describe('restarts counted for a row', () => {
  const exited = (component: 'cards' | 'gateway' | 'ai'): SupervisorEvent => ({
    kind: 'exited',
    component,
    status: 'signal SIGKILL',
    failures: 1,
    restartInMs: 500,
  });
  const back = (component: 'cards' | 'gateway'): SupervisorEvent => ({ kind: 'restarted', component, pid: 1 });

  it('counts every exit the row did not ask for, and not the one its fault made', () => {
    expect(unaskedRestarts([exited('cards'), back('cards')], [])).toBe(1);
    expect(unaskedRestarts([exited('cards'), back('cards')], ['cards'])).toBe(0);
    expect(unaskedRestarts([exited('cards'), back('cards'), exited('cards'), exited('ai')], ['cards'])).toBe(2);
    expect(unaskedRestarts([exited('gateway')], ['cards'])).toBe(1);
    const gaveUp: SupervisorEvent = { kind: 'gave-up', component: 'cards', status: 'x', failures: 5, windowMs: 1 };
    expect(unaskedRestarts([gaveUp], [])).toBe(1);
  });
});

describe('the tally of reviews', () => {
  const ann = 'ann';
  const sent = (reviewId: string, acknowledged: boolean, copy = false): SentReview => ({
    reviewId,
    userId: ann,
    itemId: `item-${reviewId}`,
    copy,
    acknowledged,
  });
  const reviews = [sent('r1', true), sent('r2', true, true), sent('r3', false, true)];
  /** What the services hold when each review sent was stored once and counted once. */
  const stored = (): ReviewFacts => ({
    logged: new Map([
      [
        ann,
        [
          { id: 'r1', copy: false },
          { id: 'r2', copy: true },
          { id: 'r3', copy: true },
        ],
      ],
    ]),
    items: reviews.map((review) => ({ id: review.itemId, reps: 1, logs: 1 })),
    days: new Map([[ann, 3]]),
    progress: new Map([[ann, ['r2', 'r3']]]),
  });

  it('finds nothing lost or duplicated when every review is stored once (one unacknowledged but done)', () => {
    expect(tallyReviews(reviews, stored())).toEqual({ lost: 0, duplicated: 0, details: [] });
  });

  it("counts a review cards logged twice (a second row for it), as the learner's counters would", () => {
    const facts = stored();
    facts.logged.get(ann)?.push({ id: 'a-row-nobody-sent', copy: false });
    facts.days.set(ann, 4);
    expect(tallyReviews(reviews, facts)).toMatchObject({ lost: 0, duplicated: 1 });
  });

  it("counts a review organizations' progress counted twice", () => {
    const facts = stored();
    facts.progress.get(ann)?.push('a-row-nobody-sent');
    expect(tallyReviews(reviews, facts)).toMatchObject({ lost: 0, duplicated: 1 });
  });

  it("counts an acknowledged review missing from cards, and one cards logged that never reached organizations' progress", () => {
    const facts = stored();
    facts.logged.set(ann, [
      { id: 'r2', copy: true },
      { id: 'r3', copy: true },
    ]);
    facts.days.set(ann, 2);
    facts.progress.set(ann, ['r2']);
    expect(tallyReviews(reviews, facts)).toMatchObject({ lost: 2, duplicated: 0 });
  });
});

describe('choosing scenarios with --only', () => {
  it('refuses a choice that names no scenario and no attack', () => {
    expect(() => chooseScenarios(['no such scenario'])).toThrow(
      "--only 'no such scenario' names no scenario (nor 'attack')",
    );
  });

  it('runs the load alone first whenever a scenario is chosen: the reference of the others', () => {
    expect(chooseScenarios(['PostgreSQL']).scenarios.map((scenario) => scenario.name)).toEqual([
      'load',
      'PostgreSQL restarted',
    ]);
    expect(chooseScenarios(['attack'])).toEqual({ scenarios: [], attacks: true });
    expect(chooseScenarios([]).scenarios).toEqual(SCENARIOS);
  });
});
