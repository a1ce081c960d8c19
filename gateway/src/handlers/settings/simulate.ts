// settings.simulate: the workload of one of the learner's presets over the coming days at each desired retention
// asked for; settings.recommendRetention: the retention that gives them the most remembered per minute, and why.
// Both computed by cards (its limits and messages: at most 5 retentions, 1 to 365 days).
import { recommendRetentionInput, simulateInput } from '@engram/contracts/scheduling';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';

export { recommendRetentionInput, simulateInput };

export interface SimulationJson {
  desiredRetention: number;
  daily: { date: string; reviews: number; minutes: number }[];
  remembered: number;
  totalMinutes: number;
}

export interface RecommendationJson {
  desiredRetention: number;
  reason: string;
  currentRetention: number;
  rememberedPerMinute: number;
  currentPerMinute: number;
}

/**
 * A forecast is worked out in a child process of cards, in turn with other learners' (services/cards/src/compute):
 * seconds at the worst settings, and a turn to wait on a busy replica.
 */
export const FORECAST_CALL = { timeoutMs: 15_000 } as const;

export async function simulate({ ctx, input }: HandlerArgs<z.infer<typeof simulateInput>>): Promise<SimulationJson[]> {
  const { runs } = await asUser(ctx).settings.simulate({ ...input, presetId: input.presetId ?? '' }, FORECAST_CALL);
  return runs;
}

export async function recommendRetention({
  ctx,
  input,
}: HandlerArgs<z.infer<typeof recommendRetentionInput>>): Promise<RecommendationJson> {
  return asUser(ctx).settings.recommendRetention({ presetId: input.presetId ?? '' }, FORECAST_CALL);
}
