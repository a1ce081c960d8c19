// optimizer: fitting a learner's FSRS-6 parameters to about 100,000 reviews as cards' optimization job does
// (the review log read in the learner's days, fitted on its earlier four fifths, both sets of parameters
// evaluated on the rest), beside ts-fsrs replaying the same reviews (each item's reviews stepped through its
// scheduler, one memory state per review) in the same run. The optimizer is a few passes over the reviews, so
// the target is the fit ≤ 20 × the replay. The learner is synthetic (a year in Tokyo, drawn from known
// parameters, with learning and relearning steps as real learners take them: services/cards/src/optimizer/
// synthetic-learner.ts); making it is not timed. Then the workload
// simulator: 10,000 cards over 365 days at three desired retentions, against the bound of 2 s on this
// machine (above it, the simulation would leave the request's path); and the recommended retention for the same
// cards, which settings.recommendRetention answers in its request (a simulation for each retention it weighs and
// one for the current one), against the same bound and as a ratio to the three-retention run.

import { trainingItems } from '@engram/cards/optimizer/history';
import { optimize } from '@engram/cards/optimizer/optimize';
import { FORGETFUL_PARAMETERS, syntheticLearner } from '@engram/cards/optimizer/synthetic-learner';
import { DEFAULT_HABITS, recommendRetention, type SimulatedCard, simulate } from '@engram/cards/simulator/simulate';
import { DEFAULT_PARAMETERS } from '@engram/contracts/scheduler';
import { RECOMMENDABLE_RETENTIONS } from '@engram/contracts/scheduling';
import { type Card, createEmptyCard, fsrs, type Grade } from 'ts-fsrs';
import { ratioAgainst } from './measure.ts';

const TARGET = { atMost: 20 };
const DAY = { timeZone: 'Asia/Tokyo', dayStartHour: 4 };
const REPLAYS = 3;
const SIMULATION_BOUND_MS = 2_000;

type Review = ReturnType<typeof syntheticLearner>[number];

/** Every item's reviews through ts-fsrs (default parameters); the number of states computed. */
function replay(byItem: Map<string, Review[]>): number {
  const scheduler = fsrs();
  let states = 0;
  for (const reviews of byItem.values()) {
    let card: Card = createEmptyCard(reviews[0]?.reviewedAt);
    for (const review of reviews) {
      card = scheduler.next(card, review.reviewedAt, review.rating as Grade).card;
      states += 1;
    }
  }
  return states;
}

export async function optimizerFit(): Promise<void> {
  const reviews = syntheticLearner({
    parameters: FORGETFUL_PARAMETERS,
    firstDay: '2025-11-01',
    days: 365,
    newPerDay: 24,
    ...DAY,
    seed: 3,
  });
  const byItem = new Map<string, Review[]>();
  for (const review of reviews) byItem.set(review.itemId, [...(byItem.get(review.itemId) ?? []), review]);
  console.log(`a synthetic learner: ${reviews.length} reviews of ${byItem.size} cards over 365 days`);

  let replayMs = Number.POSITIVE_INFINITY;
  for (let run = 0; run < REPLAYS; run += 1) {
    const started = performance.now();
    const states = replay(byItem);
    replayMs = Math.min(replayMs, performance.now() - started);
    if (states !== reviews.length) throw new Error(`replayed ${states} of ${reviews.length} reviews`);
  }

  const started = performance.now();
  const items = trainingItems(reviews, DAY);
  const readMs = performance.now() - started;
  const result = await optimize(items, { current: DEFAULT_PARAMETERS, relearningSteps: 1 });
  const fitMs = performance.now() - started;
  if (result.outcome !== 'adopted') throw new Error(`the fit was not adopted: ${JSON.stringify(result)}`);
  const { evaluation } = result;

  console.log(`ts-fsrs replay (fastest of ${REPLAYS}): ${replayMs.toFixed(0)} ms`);
  console.log(
    `optimization: ${fitMs.toFixed(0)} ms (reading the log in the learner's days ${readMs.toFixed(0)} ms, ` +
      `fit and evaluation ${(fitMs - readMs).toFixed(0)} ms; fitted on ${evaluation.trainedOn}, tested on ` +
      `${evaluation.reviews}: log loss ${evaluation.logLossBefore.toFixed(4)} → ${evaluation.logLossAfter.toFixed(4)}, ` +
      `RMSE ${evaluation.rmseBefore.toFixed(4)} → ${evaluation.rmseAfter.toFixed(4)})`,
  );
  console.log(`optimization / replay: ${ratioAgainst(fitMs / replayMs, TARGET)}`);
  simulatorSpeed();
}

/** 10,000 cards: 7,000 learned (due over the next months, some overdue) and 3,000 new. */
function collection(): SimulatedCard[] {
  const cards: SimulatedCard[] = [];
  for (let n = 0; n < 7_000; n += 1) {
    const stability = 1 + (n % 97) * 2;
    const lastDay = -(n % 40);
    cards.push({ isNew: false, stability, difficulty: 3 + (n % 7), lastDay, dueDay: lastDay + Math.round(stability) });
  }
  for (let n = 0; n < 3_000; n += 1) cards.push({ isNew: true });
  return cards;
}

export function simulatorSpeed(): void {
  const input = {
    cards: collection(),
    parameters: DEFAULT_PARAMETERS,
    days: 365,
    newPerDay: 20,
    reviewsPerDay: 9_999,
    maximumIntervalDays: 36_500,
    habits: DEFAULT_HABITS,
    seed: 1,
  };
  const started = performance.now();
  let reviews = 0;
  for (const desiredRetention of [0.8, 0.9, 0.95]) {
    const run = simulate({ ...input, desiredRetention });
    for (const day of run.daily) reviews += day.reviews;
  }
  const elapsed = performance.now() - started;
  const verdict = (ms: number) => (ms <= SIMULATION_BOUND_MS ? 'met' : 'MISSED');
  console.log(
    `simulator: 10,000 cards × 365 days × 3 retentions (${reviews} simulated reviews) in ${elapsed.toFixed(0)} ms ` +
      `(target ≤ ${SIMULATION_BOUND_MS} ms: ${verdict(elapsed)})`,
  );
  const recommending = performance.now();
  const recommendation = recommendRetention(input, 0.9);
  const recommended = performance.now() - recommending;
  console.log(
    `recommended retention for the same cards (${RECOMMENDABLE_RETENTIONS.length + 1} simulations): ` +
      `${recommendation.desiredRetention} in ${recommended.toFixed(0)} ms = ` +
      `${(recommended / elapsed).toFixed(1)} × the three-retention run (target ≤ ${SIMULATION_BOUND_MS} ms: ` +
      `${verdict(recommended)})`,
  );
}
