// Personal FSRS-6 parameters: fitted to the learner's own reviews by the FSRS optimizer (fsrs-rs through
// @open-spaced-repetition/binding, in the service, never in the browser), and adopted only when they predict
// the learner better than the parameters in use. The test is a split by time: the parameters are fitted on the
// earlier reviews and both sets predict the later ones, which neither was fitted on — the way a learner's next
// reviews will come. The adopted parameters are the ones that test measured.
import { computeParameters, FSRSBinding } from '@open-spaced-repetition/binding';
import type { TrainingItem } from './history.js';

/** Below this many reviews to learn from, the parameters in use stay. */
export const DEFAULT_MINIMUM_REVIEWS = 400;
/** The later share of the reviews kept out of the fit, to test on. */
const TEST_SHARE = 0.2;
/** How often (ms) the optimizer reports progress; its default of 500 ms also made every fit last 500 ms. */
const PROGRESS_POLL_MS = 50;

/** How well the parameters in use and the fitted ones predicted the later reviews. */
export type Evaluation = {
  /** The reviews the figures are measured on. */
  reviews: number;
  /** The reviews the parameters were fitted on. */
  trainedOn: number;
  logLossBefore: number;
  logLossAfter: number;
  rmseBefore: number;
  rmseAfter: number;
};

export type Optimization =
  | { outcome: 'adopted'; parameters: number[]; evaluation: Evaluation }
  | { outcome: 'not-better'; evaluation: Evaluation }
  | { outcome: 'too-few-reviews'; reviews: number; needed: number };

export interface OptimizeOptions {
  current: readonly number[];
  minimumReviews?: number;
  /** The learner's relearning steps (how many short-term reviews follow a lapse). */
  relearningSteps: number;
  /** Called with the optimizer's progress through its epochs. */
  onProgress?: (done: number, total: number) => void;
  /** Stops the fit at its next progress report (the replica is shutting down); `optimize` then throws its reason. */
  signal?: AbortSignal;
}

function evaluate(parameters: readonly number[], items: TrainingItem[]) {
  const { logLoss, rmseBins } = new FSRSBinding([...parameters]).evaluate(items.map(({ item }) => item));
  return { logLoss, rmse: rmseBins };
}

/** Fits parameters to `items` (oldest first) and says whether they predict the later reviews better. */
export async function optimize(items: TrainingItem[], options: OptimizeOptions): Promise<Optimization> {
  const needed = options.minimumReviews ?? DEFAULT_MINIMUM_REVIEWS;
  if (items.length < needed) return { outcome: 'too-few-reviews', reviews: items.length, needed };
  const cut = Math.floor(items.length * (1 - TEST_SHARE));
  const train = items.slice(0, cut);
  const test = items.slice(cut);
  const { signal, onProgress } = options;
  signal?.throwIfAborted();
  const fitted = await computeParameters(
    train.map(({ item }) => item),
    {
      enableShortTerm: true,
      numRelearningSteps: options.relearningSteps,
      timeout: PROGRESS_POLL_MS,
      // The optimizer stops when this answers false.
      progress: (done, total) => {
        onProgress?.(done, total);
        return !signal?.aborted;
      },
    },
  ).catch((error: unknown) => {
    signal?.throwIfAborted();
    throw error;
  });
  const before = evaluate(options.current, test);
  const after = evaluate(fitted, test);
  const evaluation: Evaluation = {
    reviews: test.length,
    trainedOn: train.length,
    logLossBefore: before.logLoss,
    logLossAfter: after.logLoss,
    rmseBefore: before.rmse,
    rmseAfter: after.rmse,
  };
  if (after.logLoss < before.logLoss) return { outcome: 'adopted', parameters: fitted, evaluation };
  return { outcome: 'not-better', evaluation };
}
