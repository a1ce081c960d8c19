// GetEntitlements: what the caller's plan allows in the current period (ai asks it for the card limit, cards
// for the storage quota of card files).
import type { CallContext } from '@engram/kit/grpc/server';
import type { Entitlements } from '@engram/proto/billing/v1/billing';
import type { BillingDeps } from '../deps.js';
import { standingOf } from '../subscriptions.js';

export function getEntitlements({ db, config }: BillingDeps) {
  return async (_request: unknown, ctx: CallContext): Promise<Entitlements> => {
    const { plan, periodStart, periodEnd } = await standingOf(db, ctx.caller.userId);
    return {
      plan,
      generatedCardsPerPeriod: config.generatedCards[plan],
      mediaQuotaBytes: config.mediaQuotaBytes[plan],
      periodStart,
      periodEnd,
    };
  };
}
