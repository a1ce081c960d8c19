// CreateCheckout: where a learner pays for a plan (Stripe Checkout). Refused for an unverified address and
// for a learner whose subscription runs (plan changes go through the portal). A checkout of theirs still
// open is offered again for the same choice, else replaced (checkout-sessions.ts).
import { BILLING_REASONS, checkoutInput } from '@engram/contracts/billing';
import { FailedPrecondition, NotFound } from '@engram/kit/errors';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { CreateCheckoutRequest, CreateCheckoutResponse } from '@engram/proto/billing/v1/billing';
import { checkoutSessionFor } from '../checkout-sessions.js';
import { ensureCustomer } from '../customers.js';
import type { BillingDeps } from '../deps.js';

export function createCheckout({ db, stripe, config, catalogue }: BillingDeps) {
  return async (request: CreateCheckoutRequest, ctx: CallContext): Promise<CreateCheckoutResponse> => {
    const userId = ctx.caller.userId;
    const input = parseInput(checkoutInput, {
      plan: request.plan,
      interval: request.interval,
      currency: request.currency || undefined,
    });
    if (!request.emailVerified) {
      throw new FailedPrecondition(
        'Email verification is required before you can subscribe to a plan',
        BILLING_REASONS.emailVerificationRequired,
      );
    }
    const offered = await catalogue.prices();
    if (!offered.some((p) => p.plan === input.plan && p.interval === input.interval && p.currency === input.currency)) {
      throw new NotFound('Subscription plan not found', BILLING_REASONS.planNotFound);
    }
    const customer = await ensureCustomer(db, stripe, { id: userId, email: request.email });
    const session = await checkoutSessionFor(
      { db, stripe, config, logger: ctx.logger },
      { id: userId, customer },
      input,
    );
    if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a URL`);
    ctx.logger.info({ checkout: session.id, ...input }, 'checkout started');
    return { url: session.url };
  };
}
