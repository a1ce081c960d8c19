// GetUsage: the caller's generated cards in the current period, the plan's limit and when it resets.
import type { CallContext } from '@engram/kit/grpc/server';
import type { Usage } from '@engram/proto/ai/v1/ai';
import type { AiDeps } from '../deps.js';
import { planOf } from '../plans.js';
import { releaseAbandoned, usedInPeriod } from '../usage.js';

export async function usageOf(deps: AiDeps, ctx: CallContext): Promise<Usage> {
  const plan = await planOf(deps.db, deps.billing, ctx);
  await releaseAbandoned(deps.db, ctx.caller.userId);
  return {
    used: Math.min(plan.limit, await usedInPeriod(deps.db, ctx.caller.userId, plan)),
    limit: plan.limit,
    resetsAt: plan.periodEnd,
    plan: plan.plan,
    generator: deps.generator.name,
  };
}

export function getUsage(deps: AiDeps) {
  return (_request: unknown, ctx: CallContext): Promise<Usage> => usageOf(deps, ctx);
}
