// settings.optimization: one of the learner's optimizations (settings.optimize started it), as it stands.
import { getOptimizationInput } from '@engram/contracts/scheduling';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { type OptimizationJson, optimizationJson } from './json.js';

export { getOptimizationInput };

export async function getOptimization({
  ctx,
  input,
}: HandlerArgs<z.infer<typeof getOptimizationInput>>): Promise<OptimizationJson> {
  return optimizationJson(await asUser(ctx).settings.getOptimization(input));
}
