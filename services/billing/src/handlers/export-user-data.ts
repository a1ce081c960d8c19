// ExportUserData: what billing holds about the caller, their part of a full data export (the gateway gathers
// it for cards' export job): their Stripe customer, every subscription as Stripe last said it was, the
// checkouts they opened, and their plan with what it allows now. Engram keeps no card numbers, payments or
// invoices (Stripe does; the customer portal shows them), so there are none to leave out. Stripe's ids are
// the learner's references there; the row version and webhook records are bookkeeping about Stripe, not them.
import type { CallContext } from '@engram/kit/grpc/server';
import type { ExportUserDataRequest, ExportUserDataResponse } from '@engram/proto/billing/v1/billing';
import type { BillingDeps } from '../deps.js';
import { standingOf } from '../subscriptions.js';

export function exportUserData({ db, config }: BillingDeps) {
  return async (_request: ExportUserDataRequest, ctx: CallContext): Promise<ExportUserDataResponse> => {
    const userId = ctx.caller.userId;
    const now = new Date();
    const [customer, subscriptions, checkouts, standing] = await Promise.all([
      db.customer.findUnique({ where: { userId } }),
      db.subscription.findMany({ where: { userId }, orderBy: { createdAt: 'asc' } }),
      db.checkout.findMany({ where: { userId }, orderBy: { createdAt: 'asc' } }),
      standingOf(db, userId),
    ]);
    const part = {
      plan: {
        plan: standing.plan,
        // active, scheduled_for_cancellation or not_active; none on the free plan.
        state: standing.state ?? null,
        periodStart: standing.periodStart,
        periodEnd: standing.periodEnd,
        generatedCardsPerPeriod: config.generatedCards[standing.plan],
        mediaQuotaBytes: config.mediaQuotaBytes[standing.plan],
      },
      customer: customer && {
        stripeCustomerId: customer.stripeCustomerId,
        email: customer.email,
        createdAt: customer.createdAt,
      },
      subscriptions: subscriptions.map((subscription) => ({
        stripeSubscriptionId: subscription.id,
        plan: subscription.plan,
        interval: subscription.interval,
        currency: subscription.currency,
        status: subscription.status,
        cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
        currentPeriodStart: subscription.currentPeriodStart,
        currentPeriodEnd: subscription.currentPeriodEnd,
        endedAt: subscription.endedAt,
        createdAt: subscription.createdAt,
        updatedAt: subscription.updatedAt,
      })),
      checkouts: checkouts.map((checkout) => ({
        stripeSessionId: checkout.sessionId,
        plan: checkout.plan,
        interval: checkout.interval,
        currency: checkout.currency,
        // An open one past its expiry is expired, as checkouts.ts counts it.
        status: checkout.status === 'open' && checkout.expiresAt <= now ? 'expired' : checkout.status,
        createdAt: checkout.createdAt,
        expiresAt: checkout.expiresAt,
      })),
    };
    return { json: JSON.stringify(part) };
  };
}
