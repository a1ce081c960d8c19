// Simulate and RecommendRetention: the workload of one of the caller's presets over the coming days at the desired
// retentions asked for, and the retention that gives them the most remembered per minute of study. Read here, and
// worked out in a child process (compute/compute-pool.ts) within a bounded number of steps (simulator/simulate.ts:
// at most about 2 s at the worst allowed settings, bench/optimizer.ts), one at a time for a learner, ended when the
// call is given up, and kept a while for the same inputs.
import { RECOMMENDATION_MIN_CARDS, recommendRetentionInput, simulateInput } from '@engram/contracts/scheduling';
import { addDays } from '@engram/contracts/study-day';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type {
  RecommendRetentionRequest,
  RetentionRecommendation,
  SimulateRequest,
  SimulateResponse,
} from '@engram/proto/cards/v1/settings';
import type { Compute } from '../compute/compute-pool.js';
import type { Stores } from '../db.js';
import { learnerWorkload } from '../simulator/learner-workload.js';
import { countPackedCards } from '../simulator/packed-cards.js';

const RECOMMENDATION_DAYS = 365;

export function simulate(stores: Stores, compute: Compute) {
  return async (request: SimulateRequest, ctx: CallContext): Promise<SimulateResponse> => {
    // The contract's rules (settings.simulate); an empty preset id is the default preset.
    const input = parseInput(simulateInput, { ...request, presetId: request.presetId || undefined });
    // A learner with forecasts in hand is refused before their cards are read again.
    let today = '';
    const runs = await compute.run(
      ctx.caller.userId,
      'simulate',
      async () => {
        const workload = await learnerWorkload(stores, ctx.caller.userId, input.presetId);
        today = workload.today;
        return { input: { ...workload.input, days: input.days }, retentions: input.desiredRetentions };
      },
      ctx.signal,
    );
    return {
      runs: input.desiredRetentions.map((desiredRetention, index) => {
        const run = runs[index] as (typeof runs)[number];
        return {
          desiredRetention,
          daily: run.daily.map(({ day, reviews, minutes }) => ({
            date: addDays(today, day),
            reviews,
            minutes,
          })),
          remembered: run.remembered,
          totalMinutes: run.totalMinutes,
        };
      }),
    };
  };
}

const percent = (retention: number) => `${Math.round(retention * 100)}%`;

export function recommendRetention(stores: Stores, compute: Compute) {
  return async (request: RecommendRetentionRequest, ctx: CallContext): Promise<RetentionRecommendation> => {
    const input = parseInput(recommendRetentionInput, { presetId: request.presetId || undefined });
    let currentRetention = 0;
    let cardCount = 0;
    const found = await compute.run(
      ctx.caller.userId,
      'recommend',
      async () => {
        const workload = await learnerWorkload(stores, ctx.caller.userId, input.presetId);
        currentRetention = workload.currentRetention;
        cardCount = countPackedCards(workload.input.cards);
        return { input: { ...workload.input, days: RECOMMENDATION_DAYS }, currentRetention };
      },
      ctx.signal,
    );
    const counts = { cardCount, cardsNeeded: RECOMMENDATION_MIN_CARDS };
    if (cardCount < RECOMMENDATION_MIN_CARDS) {
      return {
        desiredRetention: currentRetention,
        reason: `Too few cards to recommend a retention: ${cardCount} of the ${RECOMMENDATION_MIN_CARDS} it needs.`,
        currentRetention,
        rememberedPerMinute: 0,
        currentPerMinute: 0,
        ...counts,
      };
    }
    const reason =
      found.desiredRetention === currentRetention
        ? `At ${percent(found.desiredRetention)} you remember the most for each minute you study.`
        : `At ${percent(found.desiredRetention)} you would remember ${found.rememberedPerMinute.toFixed(1)} cards for each minute of study over the next year, against ${found.currentPerMinute.toFixed(1)} at ${percent(currentRetention)}.`;
    return {
      desiredRetention: found.desiredRetention,
      reason,
      currentRetention,
      rememberedPerMinute: found.rememberedPerMinute,
      currentPerMinute: found.currentPerMinute,
      ...counts,
    };
  };
}
