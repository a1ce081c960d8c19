// Simulate and RecommendRetention: the workload of one of the caller's presets over the coming days at the desired
// retentions asked for, and the retention that gives them the most remembered per minute of study. Computed in
// the call (10,000 cards over a year at three retentions take about 0.4 s: bench/optimizer.ts).
import { recommendRetentionInput, simulateInput } from '@engram/contracts/scheduling';
import { addDays } from '@engram/contracts/study-day';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type {
  RecommendRetentionRequest,
  RetentionRecommendation,
  SimulateRequest,
  SimulateResponse,
} from '@engram/proto/cards/v1/settings';
import type { Stores } from '../db.js';
import { learnerWorkload } from '../simulator/learner-workload.js';
import { recommendRetention as recommend, simulate as simulateDays } from '../simulator/simulate.js';

const RECOMMENDATION_DAYS = 365;

export function simulate(stores: Stores) {
  return async (request: SimulateRequest, ctx: CallContext): Promise<SimulateResponse> => {
    // The contract's rules (settings.simulate); an empty preset id is the default preset.
    const input = parseInput(simulateInput, { ...request, presetId: request.presetId || undefined });
    const workload = await learnerWorkload(stores, ctx.caller.userId, input.presetId);
    return {
      runs: input.desiredRetentions.map((desiredRetention) => {
        const run = simulateDays({ ...workload.input, desiredRetention, days: input.days });
        return {
          desiredRetention,
          daily: run.daily.map(({ day, reviews, minutes }) => ({
            date: addDays(workload.today, day),
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

export function recommendRetention(stores: Stores) {
  return async (request: RecommendRetentionRequest, ctx: CallContext): Promise<RetentionRecommendation> => {
    const input = parseInput(recommendRetentionInput, { presetId: request.presetId || undefined });
    const workload = await learnerWorkload(stores, ctx.caller.userId, input.presetId);
    const found = recommend({ ...workload.input, days: RECOMMENDATION_DAYS }, workload.currentRetention);
    const reason =
      found.desiredRetention === workload.currentRetention
        ? `At ${percent(found.desiredRetention)} you remember the most for each minute you study.`
        : `At ${percent(found.desiredRetention)} you would remember ${found.rememberedPerMinute.toFixed(1)} cards for each minute of study over the next year, against ${found.currentPerMinute.toFixed(1)} at ${percent(workload.currentRetention)}.`;
    return {
      desiredRetention: found.desiredRetention,
      reason,
      currentRetention: workload.currentRetention,
      rememberedPerMinute: found.rememberedPerMinute,
      currentPerMinute: found.currentPerMinute,
    };
  };
}
