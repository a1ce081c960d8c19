// ListPlans, GetCustomer and GetEntitlements: the catalogue, the caller's plan and subscription state,
// and what the plan allows in the current period.
import type { CallContext } from '@engram/kit/grpc/server';
import type { Entitlements, GetCustomerResponse, ListPlansResponse } from '@engram/proto/billing/v1/billing';
import type { BillingDeps } from '../server.js';
import { standingOf } from '../subscriptions.js';

export function listPlans({ catalogue, config }: BillingDeps) {
  const limits = Object.entries(config.generatedCards).map(([plan, generatedCardsPerPeriod]) => ({
    plan,
    generatedCardsPerPeriod,
  }));
  return async (): Promise<ListPlansResponse> => ({
    prices: await catalogue.prices(),
    standIn: config.standIn,
    limits,
  });
}

export function getCustomer({ db }: BillingDeps) {
  return async (_request: unknown, ctx: CallContext): Promise<GetCustomerResponse> => {
    const { subscription, plan, state } = await standingOf(db, ctx.caller.userId);
    if (!subscription) return { plan, state: '', interval: '', currency: '', renewsAt: undefined, endsAt: undefined };
    const ends = state !== 'active' ? (subscription.endedAt ?? subscription.currentPeriodEnd) : undefined;
    return {
      plan,
      state: state ?? '',
      interval: subscription.interval,
      currency: subscription.currency,
      renewsAt: state === 'active' ? subscription.currentPeriodEnd : undefined,
      endsAt: ends,
    };
  };
}

export function getEntitlements({ db, config }: BillingDeps) {
  return async (_request: unknown, ctx: CallContext): Promise<Entitlements> => {
    const { plan, periodStart, periodEnd } = await standingOf(db, ctx.caller.userId);
    return { plan, generatedCardsPerPeriod: config.generatedCards[plan], periodStart, periodEnd };
  };
}
