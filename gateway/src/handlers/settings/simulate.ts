// settings.simulate: the workload of one of the learner's presets over the coming days at each desired retention
// asked for, computed by cards (its limits and messages: at most 5 retentions, 1 to 365 days).
import { simulateInput } from '@engram/contracts/scheduling';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { FORECAST_CALL } from './forecast-call.js';

export { simulateInput };

export interface SimulationJson {
  desiredRetention: number;
  daily: { date: string; reviews: number; minutes: number }[];
  remembered: number;
  totalMinutes: number;
}

export async function simulate({ ctx, input }: HandlerArgs<z.infer<typeof simulateInput>>): Promise<SimulationJson[]> {
  const { runs } = await asUser(ctx).settings.simulate({ ...input, presetId: input.presetId ?? '' }, FORECAST_CALL);
  return runs;
}
