// GetCustomer: the caller's plan and where their subscription stands.
import type { CallContext } from '@engram/kit/grpc/server';
import type { GetCustomerResponse } from '@engram/proto/billing/v1/billing';
import type { BillingDeps } from '../deps.js';
import { standingOf } from '../subscriptions.js';

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
