// The Checkout Session a learner is sent to pay in. Their open one is offered again when it is for the
// plan, interval and currency they chose now (a second tab, or back from Stripe without paying and
// Subscribe again) and has time left to pay; any other open one is expired at Stripe first, so that no
// more than one can ever be paid, and a new one is opened. A checkout reserved by a request still waiting
// for Stripe is finished by whoever finds it: the same parameters under the same idempotency key give the
// same session (Stripe keeps keys for a day, far longer than a checkout lives).
import type { CheckoutInput } from '@engram/contracts/billing';
import { Unavailable } from '@engram/kit/errors';
import type { Logger } from '@engram/kit/logger';
import Stripe from 'stripe';
import {
  alreadySubscribed,
  attachSession,
  closeCheckout,
  type HeldCheckout,
  holdCheckout,
  releaseCheckout,
} from './checkouts.js';
import type { Config } from './config.js';
import type { Db } from './db.js';

export const SUCCESS_PATH = '/billing/success?session_id={CHECKOUT_SESSION_ID}';
export const CANCEL_PATH = '/billing/cancel';

/** An open session with less time left than this is replaced rather than offered again. */
export const MIN_TIME_TO_PAY_MS = 10 * 60_000;

/** Rounds of finding the open checkout: more are needed only while the learner's other tabs change it. */
const MAX_ROUNDS = 4;

interface Deps {
  db: Db;
  stripe: Stripe;
  config: Config;
  logger: Logger;
}

interface Learner {
  id: string;
  /** Their Stripe customer. */
  customer: string;
}

const busy = () =>
  new Unavailable('Another checkout of yours is being opened at this moment. Please try again in a moment.');

/** What Stripe is asked for a checkout: the same for every request that finishes it. */
function sessionParams(config: Config, learner: Learner, checkout: HeldCheckout, choice: CheckoutInput) {
  return {
    mode: 'subscription',
    customer: learner.customer,
    client_reference_id: learner.id,
    line_items: [{ price: config.prices.of(choice.plan, choice.interval, choice.currency), quantity: 1 }],
    success_url: `${config.publicBaseUrl}${SUCCESS_PATH}`,
    cancel_url: `${config.publicBaseUrl}${CANCEL_PATH}`,
    allow_promotion_codes: config.BILLING_ALLOW_PROMOTION_CODES,
    automatic_tax: { enabled: config.BILLING_AUTOMATIC_TAX },
    subscription_data: { metadata: { userId: learner.id } },
    expires_at: Math.floor(checkout.expiresAt.getTime() / 1000),
  } satisfies Stripe.Checkout.SessionCreateParams;
}

/**
 * The held checkout's session, made by Stripe now if it has none yet; `attached` is false when the
 * checkout was closed or given up meanwhile (the session is then not to be offered).
 */
async function sessionOf(deps: Deps, learner: Learner, held: HeldCheckout) {
  if (held.sessionId) {
    try {
      return { session: await deps.stripe.checkout.sessions.retrieve(held.sessionId), attached: true };
    } catch (error) {
      // Stripe has no such session (a stand-in whose state was wiped, say): nothing is left to pay.
      if (!(error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing')) throw error;
      await closeCheckout(deps.db, held.sessionId, 'expired');
      return undefined;
    }
  }
  // Reserved before billing kept the choice, so its request cannot be repeated: given up for a new one.
  if (!held.choice) {
    await releaseCheckout(deps.db, held.id);
    return undefined;
  }
  let session: Stripe.Checkout.Session;
  try {
    session = await deps.stripe.checkout.sessions.create(sessionParams(deps.config, learner, held, held.choice), {
      idempotencyKey: `engram-checkout-${held.id}`,
    });
  } catch (error) {
    // Given up, so the learner can try again at once: should Stripe have made the session after all, its URL
    // never reaches the learner (a request still waiting for it finds the checkout gone, and expires it).
    await releaseCheckout(deps.db, held.id);
    if (held.reserved) throw error;
    deps.logger.warn(
      { err: error, checkout: held.id },
      "an earlier request's checkout could not be opened; opening another",
    );
    return undefined;
  }
  return { session, attached: await attachSession(deps.db, held.id, session) };
}

const sameChoice = (a: CheckoutInput | null, b: CheckoutInput) =>
  a?.plan === b.plan && a.interval === b.interval && a.currency === b.currency;

/** Expires an open session at Stripe; false when it was no longer open (paid or expired meanwhile). */
async function expireAtStripe(stripe: Stripe, sessionId: string): Promise<boolean> {
  try {
    await stripe.checkout.sessions.expire(sessionId);
    return true;
  } catch (error) {
    if (error instanceof Stripe.errors.StripeInvalidRequestError) return false;
    throw error;
  }
}

/**
 * The open Checkout Session for `choice`: the learner's open one again, or a new one. Refuses
 * (ALREADY_SUBSCRIBED_PLAN) while a subscription of theirs runs or their open checkout has just been paid.
 */
export async function checkoutSessionFor(
  deps: Deps,
  learner: Learner,
  choice: CheckoutInput,
): Promise<Stripe.Checkout.Session> {
  for (let round = 1; round <= MAX_ROUNDS; round += 1) {
    const held = await holdCheckout(deps.db, learner.id, choice);
    const found = held && (await sessionOf(deps, learner, held));
    if (!held || !found) continue;
    const { session, attached } = found;
    if (session.status === 'complete') {
      // Paid, and its webhook not handled yet: the subscription exists at Stripe.
      await closeCheckout(deps.db, session.id, 'complete');
      throw alreadySubscribed();
    }
    const timeLeft = session.expires_at * 1000 - Date.now();
    if (attached && session.status === 'open' && sameChoice(held.choice, choice) && timeLeft >= MIN_TIME_TO_PAY_MS) {
      return session;
    }
    if (session.status === 'open') {
      if (!(await expireAtStripe(deps.stripe, session.id))) continue;
      deps.logger.info(
        { checkout: session.id, was: held.choice, now: choice },
        'an open checkout expired for a new one',
      );
    }
    await closeCheckout(deps.db, session.id, 'expired');
  }
  throw busy();
}
