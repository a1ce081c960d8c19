// CreatePortal: where a learner changes or cancels their plan (Stripe's Customer Portal).
import { BILLING_REASONS } from '@engram/contracts/billing';
import { NotFound } from '@engram/kit/errors';
import type { CallContext } from '@engram/kit/grpc/server';
import type { CreatePortalResponse } from '@engram/proto/billing/v1/billing';
import { customerOf } from '../customers.js';
import type { BillingDeps } from '../deps.js';

export const PORTAL_RETURN_PATH = '/billing/plans';

export function createPortal({ db, stripe, config }: BillingDeps) {
  return async (_request: unknown, ctx: CallContext): Promise<CreatePortalResponse> => {
    const customer = await customerOf(db, ctx.caller.userId);
    if (!customer) throw new NotFound('Subscription not found', BILLING_REASONS.notFound);
    const session = await stripe.billingPortal.sessions.create({
      customer,
      return_url: `${config.publicBaseUrl}${PORTAL_RETURN_PATH}`,
    });
    return { url: session.url };
  };
}
