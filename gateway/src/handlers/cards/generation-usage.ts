// cards.generationUsage (the dashboard loads it, docs/product.md#routes): how many cards the learner generated in the
// current billing period, the plan's limit and when it resets. Served by the ai service, which meters it; ai asks
// cards (existing cards) and billing (the plan) on the user's behalf with the same token.
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { type UsageJson, usageJson } from '../ai/json.js';

export async function generationUsage({ ctx }: HandlerArgs): Promise<UsageJson> {
  return usageJson(await asUser(ctx).ai.getUsage({}));
}
