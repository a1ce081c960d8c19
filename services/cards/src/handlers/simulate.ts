// Simulate and RecommendRetention: the workload of one of the caller's presets over the coming days at the desired
// retentions asked for, and the retention that gives them the most remembered per minute of study. Computed in
// the call (10,000 cards over a year at three retentions take about 0.4 s: bench/optimizer.ts).
import { settingsFields } from '@engram/contracts/learning';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type {
  RecommendRetentionRequest,
  RetentionRecommendation,
  SimulateRequest,
  SimulateResponse,
} from '@engram/proto/cards/v1/settings';
import { z } from 'zod';
import type { Stores } from '../db.js';
import { addDays } from '../domain/study-day.js';
import { learnerWorkload } from '../simulator/learner-workload.js';
import { recommendRetention as recommend, simulate as simulateDays } from '../simulator/simulate.js';

/** The most days ahead, and the most retentions side by side, one call simulates. */
export const MAX_SIMULATED_DAYS = 365;
export const MAX_SIMULATED_RETENTIONS = 5;
const RECOMMENDATION_DAYS = 365;

const presetId = z.union([z.literal(''), z.uuid('The preset is not valid.')]);

const simulateInput = z.object({
  presetId,
  desiredRetentions: z
    .array(settingsFields.desiredRetention)
    .min(1, 'Give at least one desired retention to simulate.')
    .max(MAX_SIMULATED_RETENTIONS, `At most ${MAX_SIMULATED_RETENTIONS} desired retentions at once.`),
  days: z
    .number()
    .int()
    .min(1, `Simulate from 1 to ${MAX_SIMULATED_DAYS} days.`)
    .max(MAX_SIMULATED_DAYS, `Simulate from 1 to ${MAX_SIMULATED_DAYS} days.`),
});

export function simulate(stores: Stores) {
  return async (request: SimulateRequest, ctx: CallContext): Promise<SimulateResponse> => {
    const input = parseInput(simulateInput, request);
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
    const input = parseInput(z.object({ presetId }), request);
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
