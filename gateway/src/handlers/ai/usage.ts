// cards.generationUsage (the dashboard loads it, docs/product.md#routes): how many cards the learner generated in the
// current billing period, the plan's limit and when it resets. Served by the ai service, which meters it.
import type { Usage } from '@engram/proto/ai/v1/ai';
import { asUser } from '../../call.js';
import type { ProtectedContext } from '../../trpc.js';

/** ai asks cards (existing cards) and billing (the plan) on the user's behalf with the same token. */
export interface UsageJson {
  used: number;
  limit: number;
  resetsAt: string | null;
  plan: string;
  generator: string;
}

export function usageJson(usage: Usage): UsageJson {
  return {
    used: usage.used,
    limit: usage.limit,
    resetsAt: usage.resetsAt?.toISOString() ?? null,
    plan: usage.plan,
    generator: usage.generator,
  };
}

export async function generationUsage({ ctx }: { ctx: ProtectedContext }): Promise<UsageJson> {
  return usageJson(await asUser(ctx).ai.getUsage({}));
}
