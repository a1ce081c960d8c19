// The settings as the web app reads them: the learner's scheduling settings and their presets (the API's public
// shape, issue "scheduling that learns the learner"), and an optimization of a preset.
import type { Evaluation, Optimization, Preset, Settings } from '@engram/proto/cards/v1/settings';

export interface EvaluationJson {
  /** The later reviews the figures were measured on (neither set of parameters was fitted on them). */
  reviews: number;
  /** The earlier reviews the new parameters were fitted on. */
  trainedOn: number;
  logLossBefore: number;
  logLossAfter: number;
  rmseBefore: number;
  rmseAfter: number;
  measuredAt: string;
}

export interface PresetJson {
  /** Empty for a default preset not made yet (it is made when first needed). */
  id: string;
  name: string;
  isDefault: boolean;
  tagIds: string[];
  desiredRetention: number;
  parameters: number[];
  /** When the learner's own parameters were adopted; null while FSRS-6's defaults are in use. */
  optimizedAt: string | null;
  evaluation: EvaluationJson | null;
  newPerDay: number;
  reviewsPerDay: number;
}

export type SettingsJson = Omit<Settings, 'presets'> & { presets: PresetJson[] };

export type OptimizationStatus = 'queued' | 'running' | 'done' | 'failed';
export type OptimizationOutcome = 'adopted' | 'not-better' | 'too-few-reviews';
/** Why a failed optimization ended (services/cards/src/jobs/job-row.ts); null: it failed otherwise. */
export type OptimizationFailure = 'out-of-memory' | 'timed-out' | 'crashed' | 'gave-up';

export interface OptimizationJson {
  id: string;
  presetId: string;
  status: OptimizationStatus;
  progress: { done: number; total: number };
  /** Once done. */
  outcome: OptimizationOutcome | null;
  /** Once failed, when its process ended it or it was given up. */
  failure: OptimizationFailure | null;
  evaluation: EvaluationJson | null;
  /** The reviews there were to learn from, and the least it needs (for too-few-reviews). */
  reviews: number;
  needed: number;
  createdAt: string;
  finishedAt: string | null;
}

const evaluationJson = (evaluation: Evaluation | undefined): EvaluationJson | null =>
  evaluation
    ? {
        reviews: evaluation.reviews,
        trainedOn: evaluation.trainedOn,
        logLossBefore: evaluation.logLossBefore,
        logLossAfter: evaluation.logLossAfter,
        rmseBefore: evaluation.rmseBefore,
        rmseAfter: evaluation.rmseAfter,
        measuredAt: evaluation.measuredAt?.toISOString() ?? '',
      }
    : null;

export const presetJson = (preset: Preset): PresetJson => ({
  id: preset.id,
  name: preset.name,
  isDefault: preset.isDefault,
  tagIds: preset.tagIds,
  desiredRetention: preset.desiredRetention,
  parameters: preset.parameters,
  optimizedAt: preset.optimizedAt?.toISOString() ?? null,
  evaluation: evaluationJson(preset.evaluation),
  newPerDay: preset.newPerDay,
  reviewsPerDay: preset.reviewsPerDay,
});

export const settingsJson = ({ presets, ...settings }: Settings): SettingsJson => ({
  ...settings,
  presets: presets.map(presetJson),
});

const STATUSES: readonly string[] = ['queued', 'running', 'done', 'failed'] satisfies OptimizationStatus[];
const OUTCOMES: readonly string[] = ['adopted', 'not-better', 'too-few-reviews'] satisfies OptimizationOutcome[];
const FAILURES: readonly string[] = [
  'out-of-memory',
  'timed-out',
  'crashed',
  'gave-up',
] satisfies OptimizationFailure[];

export const optimizationJson = (answer: Optimization): OptimizationJson => ({
  id: answer.id,
  presetId: answer.presetId,
  status: (STATUSES.includes(answer.status) ? answer.status : 'queued') as OptimizationStatus,
  progress: { done: answer.progressDone, total: answer.progressTotal },
  outcome: OUTCOMES.includes(answer.outcome) ? (answer.outcome as OptimizationOutcome) : null,
  failure:
    answer.status === 'failed' && FAILURES.includes(answer.outcome) ? (answer.outcome as OptimizationFailure) : null,
  evaluation: evaluationJson(answer.evaluation),
  reviews: answer.reviews,
  needed: answer.needed,
  createdAt: answer.createdAt?.toISOString() ?? '',
  finishedAt: answer.finishedAt?.toISOString() ?? null,
});
