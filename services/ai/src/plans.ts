// The caller's plan, its card limit and the counting period, as billing's GetEntitlements answers it.
// The answer is kept (entitlements table) until its period ends or billing announces a change
// (SubscriptionChanged, events/index.ts), so a generation costs no call to billing in the usual case.

import { unary } from '@engram/kit/grpc/client';
import type { CallContext } from '@engram/kit/grpc/server';
import { type BillingServiceClient, BillingServiceService } from '@engram/proto/billing/v1/billing';
import type { Db } from './db.js';
import { countingPeriod } from './domain/period.js';
import { askPeer } from './peers.js';

export interface Plan {
  plan: string;
  limit: number;
  periodStart: Date;
  periodEnd: Date;
}

const BILLING_CALL_MS = 3_000;

export async function planOf(db: Db, billing: BillingServiceClient, ctx: CallContext): Promise<Plan> {
  const userId = ctx.caller.userId;
  const now = new Date();
  let known = await db.entitlement.findUnique({ where: { userId } });
  if (!known || known.periodEnd <= now) {
    // The internal token names billing among its audiences: billing answers for this user only.
    const answer = await askPeer(BillingServiceService, () =>
      unary(
        billing,
        billing.getEntitlements,
        {},
        { token: ctx.token, timeoutMs: BILLING_CALL_MS, parentDeadline: ctx.deadline, signal: ctx.signal },
      ),
    );
    const fields = {
      plan: answer.plan,
      cardLimit: answer.generatedCardsPerPeriod,
      periodStart: answer.periodStart ?? now,
      periodEnd: answer.periodEnd ?? now,
      fetchedAt: now,
    };
    known = await db.entitlement.upsert({ where: { userId }, create: { userId, ...fields }, update: fields });
  }
  const period = countingPeriod(known.periodStart, known.periodEnd, now);
  return { plan: known.plan, limit: known.cardLimit, periodStart: period.start, periodEnd: period.end };
}
