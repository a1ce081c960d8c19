// Whether a scenario's promise held, decided from what the run saw of it (its evidence) and nothing else, so the
// rules can be checked with evidence made up for the purpose (bench/test/proof-verdict.test.ts).
import type { Promised } from './scenarios.ts';

export interface ScenarioEvidence {
  promise: Promised;
  /** Also promised: every request answered before the load's own timeout. */
  answersWithinDeadlines: boolean;
  failures: number;
  /** Some attempt got no answer before the load's timeout. */
  unanswered: boolean;
  lost: number;
  duplicated: number;
  /** Why the fault could not be injected or recovered from, if it could not. */
  faultError?: string;
  /** The app said the leaver's account deletion was done. */
  deletionAcknowledged: boolean;
  /** Details of what was lost or duplicated. */
  details: string[];
}

export interface Verdict {
  held: boolean;
  problems: string[];
}

export function verdict(evidence: ScenarioEvidence): Verdict {
  const { faultError, deletionAcknowledged } = evidence;
  const held =
    evidence.lost === 0 &&
    evidence.duplicated === 0 &&
    !faultError &&
    (evidence.promise !== 'no failed request' || (evidence.failures === 0 && deletionAcknowledged)) &&
    !(evidence.answersWithinDeadlines && evidence.unanswered);
  return {
    held,
    problems: [
      ...(faultError ? [`the fault could not be injected or recovered from: ${faultError}`] : []),
      ...(deletionAcknowledged ? [] : ['the account deletion was never acknowledged']),
      ...evidence.details.slice(0, 10),
    ],
  };
}
