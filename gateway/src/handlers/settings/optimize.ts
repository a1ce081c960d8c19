// settings.optimize: fits one of the learner's presets (the default one when none is named) to their reviews, as
// a background job; settings.optimization follows it.
import { getOptimizationInput, optimizeInput } from '@engram/contracts/scheduling';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { type OptimizationJson, optimizationJson } from './json.js';

export { getOptimizationInput, optimizeInput };

export async function optimize({ ctx, input }: HandlerArgs<z.infer<typeof optimizeInput>>): Promise<{ jobId: string }> {
  return asUser(ctx).settings.optimize({
    presetId: input.presetId ?? '',
    excludeDeletedCards: input.excludeDeletedCards ?? false,
  });
}

export async function getOptimization({
  ctx,
  input,
}: HandlerArgs<z.infer<typeof getOptimizationInput>>): Promise<OptimizationJson> {
  return optimizationJson(await asUser(ctx).settings.getOptimization(input));
}
