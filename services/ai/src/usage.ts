// Generated cards counted against the plan's limit, per user and billing period. A generation reserves
// the cards it asks for before any model call, in one conditional UPDATE, so concurrent requests can
// never pass the limit together; it then settles to the cards it delivered, or releases everything.
import { AI_REASONS } from '@engram/contracts/ai';
import { FailedPrecondition } from '@engram/kit/errors';
import type { CallContext } from '@engram/kit/grpc/server';
import type { Usage } from '@engram/proto/ai/v1/ai';
import type { Db } from './db.js';
import type { AiDeps } from './deps.js';
import { type Plan, planOf } from './plans.js';

export class UsageLimitReached extends FailedPrecondition {
  constructor(left: number) {
    super(
      left > 0
        ? `Usage limit reached: only ${left} generated cards are left in this billing period.`
        : 'Usage limit reached: no generated cards are left in this billing period.',
      AI_REASONS.usageLimitReached,
    );
  }
}

/** How long after its start a generation still running must have been abandoned (its process ended). */
export const ABANDONED_AFTER_MS = 10 * 60_000;

/**
 * Gives back the reservations of the user's generations that were left running by a process that ended
 * mid-generation (a crash, a killed pod): each is marked abandoned once, by whoever gets there first.
 */
export async function releaseAbandoned(db: Db, userId: string, now = new Date()): Promise<void> {
  const stale = await db.generation.findMany({
    where: { userId, status: 'running', createdAt: { lt: new Date(now.getTime() - ABANDONED_AFTER_MS) } },
    select: { id: true },
  });
  for (const { id } of stale) await settle(db, id, { ...NOTHING_DELIVERED, status: 'abandoned' });
}

const NOTHING_DELIVERED = { delivered: 0, dropped: 0, inputTokens: 0, outputTokens: 0, latencyMs: 0 };

/** How many cards the user has generated (or has reserved) in the plan's current period. */
export async function usedInPeriod(db: Db, userId: string, plan: Plan): Promise<number> {
  const row = await db.usagePeriod.findUnique({
    where: { userId_periodStart: { userId, periodStart: plan.periodStart } },
    select: { used: true },
  });
  return row?.used ?? 0;
}

/** Reserves `count` cards for a new generation (recorded as running), or refuses beyond the limit. */
export async function reserve(
  db: Db,
  generation: { id: string; userId: string; generator: string; model: string; requested: number },
  plan: Plan,
): Promise<void> {
  const { userId, requested } = generation;
  await releaseAbandoned(db, userId);
  await db.$transaction(async (tx) => {
    await tx.$executeRaw`
      INSERT INTO usage_periods (user_id, period_start, period_end, used)
      VALUES (${userId}, ${plan.periodStart}, ${plan.periodEnd}, 0)
      ON CONFLICT DO NOTHING`;
    const reserved = await tx.$executeRaw`
      UPDATE usage_periods SET used = used + ${requested}, updated_at = now()
      WHERE user_id = ${userId} AND period_start = ${plan.periodStart} AND used + ${requested} <= ${plan.limit}`;
    if (reserved === 0)
      throw new UsageLimitReached(Math.max(0, plan.limit - (await usedInPeriod(tx as Db, userId, plan))));
    await tx.generation.create({ data: { ...generation, periodStart: plan.periodStart, status: 'running' } });
  });
}

export interface Outcome {
  status: 'complete' | 'interrupted' | 'failed' | 'cancelled' | 'abandoned';
  delivered: number;
  dropped: number;
  inputTokens: number;
  outputTokens: number;
  latencyMs: number;
  error?: string | undefined;
}

/** A run's outcome before it delivers anything: failed, unless it gets further. */
export const startingOutcome = (): Outcome => ({
  status: 'failed',
  delivered: 0,
  dropped: 0,
  inputTokens: 0,
  outputTokens: 0,
  latencyMs: 0,
});

/** When a run must be over: the service's limit for a generation, or the caller's deadline if sooner. */
export const runDeadline = (timeoutMs: number, ctx: CallContext): Date =>
  new Date(Math.min(Date.now() + timeoutMs, ctx.deadline?.getTime() ?? Number.POSITIVE_INFINITY));

/**
 * Gives back what a generation reserved but did not deliver, and records how it ended. Runs once: true
 * for the call that settled it, false for any later one.
 */
export async function settle(db: Db, generationId: string, outcome: Outcome): Promise<boolean> {
  return db.$transaction(async (tx) => {
    // Claimed by a conditional update, so two settlements of one generation (its own and a release of it
    // as abandoned) never give its reservation back twice.
    const claimed = await tx.generation.updateMany({
      where: { id: generationId, status: 'running' },
      data: { status: outcome.status },
    });
    if (claimed.count === 0) return false;
    const generation = await tx.generation.findUniqueOrThrow({ where: { id: generationId } });
    const unused = generation.requested - outcome.delivered;
    await tx.$executeRaw`
      UPDATE usage_periods SET used = GREATEST(0, used - ${unused}), updated_at = now()
      WHERE user_id = ${generation.userId} AND period_start = ${generation.periodStart}`;
    await tx.generation.update({
      where: { id: generationId },
      data: {
        status: outcome.status,
        delivered: outcome.delivered,
        dropped: outcome.dropped,
        inputTokens: outcome.inputTokens,
        outputTokens: outcome.outputTokens,
        latencyMs: outcome.latencyMs,
        error: outcome.error ?? null,
        finishedAt: new Date(),
      },
    });
    return true;
  });
}

/** The caller's usage as GetUsage answers it and Generate reports it when it finishes. */
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
