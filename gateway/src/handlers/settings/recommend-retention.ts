// settings.recommendRetention: the desired retention that gives the learner the most remembered per minute of
// review for one of their presets, and why, computed by cards.
import { recommendRetentionInput } from '@engram/contracts/scheduling';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { FORECAST_CALL } from './forecast-call.js';

export { recommendRetentionInput };

export interface RecommendationJson {
  desiredRetention: number;
  reason: string;
  currentRetention: number;
  rememberedPerMinute: number;
  currentPerMinute: number;
  /** The preset's cards, and the fewest a recommendation needs; with fewer, none is made. */
  cardCount: number;
  cardsNeeded: number;
}

export async function recommendRetention({
  ctx,
  input,
}: HandlerArgs<z.infer<typeof recommendRetentionInput>>): Promise<RecommendationJson> {
  return asUser(ctx).settings.recommendRetention({ presetId: input.presetId ?? '' }, FORECAST_CALL);
}
