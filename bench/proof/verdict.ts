// Whether a scenario's promise held, decided from what the run saw of it (its evidence) and nothing else, so the
// rules can be checked with evidence made up for the purpose (bench/test/unit/proof-verdict.test.ts). A row holds only
// on evidence: its load got reviews acknowledged to check, its leaver's deletion went through and was verified,
// no process restarted unasked, and a hostile learner's row kept the other learners within their bound.
import type { Promised } from './scenarios.ts';

/** When the leaver's account deletion went through: while the fault was on, sent again after it, or never. */
export type Deletion = 'during the fault' | 'after the fault' | 'never';

export interface ScenarioEvidence {
  promise: Promised;
  /** Also promised: every request answered before the load's own timeout. */
  answersWithinDeadlines: boolean;
  failures: number;
  /** Some attempt got no answer before the load's timeout. */
  unanswered: boolean;
  /** Of the reviews acknowledged so far and of the deletions verified, lost or duplicated in this row. */
  lost: number;
  duplicated: number;
  /** Why the fault could not be injected or recovered from, if it could not. */
  faultError?: string;
  deletion: Deletion;
  /** Reviews the load sent in this row (each review id once), and those the app acknowledged. */
  reviewsSent: number;
  reviewsAcknowledged: number;
  learnersWithoutAcknowledgedReview: number;
  /** The other learners' review p99 during the row ÷ their idle p99. */
  slowdown: number;
  /** The most `slowdown` may be (a hostile learner's row); a fault's slowdown is only shown. */
  slowdownBound?: number;
  /** Exits of Engram's processes during the row that neither the row nor its fault asked for. */
  restarts: number;
  /** What a hostile learner's act ended in that it should not have (their import, optimization, calls). */
  actProblems: string[];
  /** Details of what was lost or duplicated. */
  details: string[];
}

export interface Verdict {
  held: boolean;
  /** Why the row broke; none when it held. */
  problems: string[];
}

/** A row proves something only if at least this share of the reviews it sent were acknowledged. */
export const ACKNOWLEDGED_FLOOR = 0.5;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function verdict(evidence: ScenarioEvidence): Verdict {
  const { faultError, deletion, reviewsSent, reviewsAcknowledged, slowdown, slowdownBound } = evidence;
  const noFailure = evidence.promise === 'no failed request';
  const floor = Math.max(1, Math.ceil(reviewsSent * ACKNOWLEDGED_FLOOR));
  const problems = [
    ...(faultError ? [`the fault could not be injected or recovered from: ${faultError}`] : []),
    ...(evidence.lost > 0 ? [`${evidence.lost} lost`] : []),
    ...(evidence.duplicated > 0 ? [`${evidence.duplicated} duplicated`] : []),
    ...evidence.details.slice(0, 10),
    ...(noFailure && evidence.failures > 0 ? [`${plural(evidence.failures, 'request', 'requests')} failed`] : []),
    ...(evidence.answersWithinDeadlines && evidence.unanswered
      ? ['a request got no answer before the load gave up on it']
      : []),
    ...(deletion === 'never'
      ? ['the account deletion never went through: every attempt failed during the fault and after it']
      : noFailure && deletion === 'after the fault'
        ? ['the account deletion failed while the fault was on']
        : []),
    ...(reviewsAcknowledged < floor
      ? [
          `only ${reviewsAcknowledged} of the ${reviewsSent} reviews sent were acknowledged (at least ${floor} must be, or the row proves nothing)`,
        ]
      : []),
    ...(evidence.learnersWithoutAcknowledgedReview > 0
      ? [`${plural(evidence.learnersWithoutAcknowledgedReview, 'learner', 'learners')} had no review acknowledged`]
      : []),
    ...(slowdownBound !== undefined && !(slowdown <= slowdownBound)
      ? [`the other learners' review p99 was ${slowdown.toFixed(1)} × their idle p99 (at most ${slowdownBound} ×)`]
      : []),
    ...(evidence.restarts > 0
      ? [`${plural(evidence.restarts, 'process', 'processes')} restarted without being asked to`]
      : []),
    ...evidence.actProblems,
  ];
  return { held: problems.length === 0, problems };
}
