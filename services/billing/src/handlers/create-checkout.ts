// CreateCheckout: where a learner pays for a plan (Stripe Checkout). Refused for an unverified address,
// for a learner whose subscription runs (plan changes go through the portal) and while another checkout
// of theirs is open (checkouts.ts).
import { BILLING_REASONS, checkoutInput } from '@engram/contracts/billing';
import { FailedPrecondition, NotFound } from '@engram/kit/errors';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { CreateCheckoutRequest, CreateCheckoutResponse } from '@engram/proto/billing/v1/billing';
import type Stripe from 'stripe';
import { attachSession, releaseCheckout, reserveCheckout } from '../checkouts.js';
import { ensureCustomer } from '../customers.js';
import type { BillingDeps } from '../server.js';

export const SUCCESS_PATH = '/billing/success?session_id={CHECKOUT_SESSION_ID}';
export const CANCEL_PATH = '/billing/cancel';

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
    const checkout = await reserveCheckout(db, userId);
    let session: Stripe.Checkout.Session;
    try {
      session = await stripe.checkout.sessions.create(
        {
          mode: 'subscription',
          customer,
          client_reference_id: userId,
          line_items: [{ price: config.prices.of(input.plan, input.interval, input.currency), quantity: 1 }],
          success_url: `${config.publicBaseUrl}${SUCCESS_PATH}`,
          cancel_url: `${config.publicBaseUrl}${CANCEL_PATH}`,
          allow_promotion_codes: config.BILLING_ALLOW_PROMOTION_CODES,
          automatic_tax: { enabled: config.BILLING_AUTOMATIC_TAX },
          subscription_data: { metadata: { userId } },
          expires_at: Math.floor(checkout.expiresAt.getTime() / 1000),
        },
        { idempotencyKey: `engram-checkout-${checkout.id}` },
      );
    } catch (error) {
      // Should Stripe have made the session after all, its URL never reaches the learner.
      await releaseCheckout(db, checkout.id);
      throw error;
    }
    await attachSession(db, checkout.id, session);
    if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a URL`);
    ctx.logger.info({ checkout: session.id, ...input }, 'checkout started');
    return { url: session.url };
  };
}
