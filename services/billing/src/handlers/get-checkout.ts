// GetCheckout: where one of the caller's checkouts stands, and whether its subscription is recorded yet.
import { Invalid, NotFound } from '@engram/kit/errors';
import type { CallContext } from '@engram/kit/grpc/server';
import type { GetCheckoutRequest, GetCheckoutResponse } from '@engram/proto/billing/v1/billing';
import Stripe from 'stripe';
import type { BillingDeps } from '../deps.js';

/** Stripe's Checkout Session ids: `cs_test_…` or `cs_live_…`. */
const SESSION_ID = /^cs_(test|live)_[A-Za-z0-9]{1,200}$/;

export function getCheckout({ db, stripe }: BillingDeps) {
  return async (request: GetCheckoutRequest, ctx: CallContext): Promise<GetCheckoutResponse> => {
    if (!SESSION_ID.test(request.sessionId)) {
      throw new Invalid('This is not a checkout session id.', 'INVALID_CHECKOUT_SESSION');
    }
    const notFound = () => new NotFound('Checkout session not found', 'CHECKOUT_SESSION_NOT_FOUND');
    let session: Stripe.Checkout.Session;
    try {
      session = await stripe.checkout.sessions.retrieve(request.sessionId);
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing')
        throw notFound();
      throw error;
    }
    // Another user's session is answered as if it did not exist.
    if (session.client_reference_id !== ctx.caller.userId) throw notFound();
    const subscriptionId = typeof session.subscription === 'string' ? session.subscription : session.subscription?.id;
    const recorded = subscriptionId
      ? await db.subscription.findFirst({ where: { id: subscriptionId, userId: ctx.caller.userId } })
      : null;
    return {
      status: session.status ?? 'open',
      paid: session.payment_status !== 'unpaid',
      fulfilled: recorded !== null,
      plan: recorded?.plan ?? '',
      interval: recorded?.interval ?? '',
      currency: recorded?.currency ?? '',
    };
  };
}
