// The checkouts a user opens, as billing records them: at most one open at a time, and none while a
// subscription of theirs runs, so two tabs (or a second click before the first webhook) cannot start a
// second subscription. Holding the open checkout (finding it, or reserving a new one) is one transaction
// under a lock on the user's customer row, which webhooks take too before they store a subscription, and a
// partial unique index keeps a second open checkout out whatever happens. Stripe is called outside that
// transaction (checkout-sessions.ts): the checkout is reserved first, its session attached once Stripe has
// made it.
import { randomUUID } from 'node:crypto';
import { BILLING_REASONS, type CheckoutInput } from '@engram/contracts/billing';
import { isUniqueViolation } from '@engram/kit/db';
import { FailedPrecondition } from '@engram/kit/errors';
import type Stripe from 'stripe';
import type { Db, Prisma } from './db.js';
import { RUNNING_STATUSES } from './domain/subscription-state.js';

/**
 * How long a checkout stays payable: ample to pay. Starting a checkout again meanwhile offers the same one,
 * or expires it for another plan (Stripe allows 30 minutes to 24 hours; its default is a day).
 */
export const CHECKOUT_LIFETIME_MS = 60 * 60_000;

/** Only said when a subscription of the user's really exists (running, or just paid at Stripe). */
export const alreadySubscribed = () =>
  new FailedPrecondition("You're already subscribed to this plan", BILLING_REASONS.alreadySubscribed);

/** The user's open checkout, as held for this request. */
export interface HeldCheckout {
  id: string;
  sessionId: string | null;
  /** What the learner chose in it; null for a checkout opened before billing kept that. */
  choice: CheckoutInput | null;
  expiresAt: Date;
  /** Reserved by this request just now (else found open, from an earlier request). */
  reserved: boolean;
}

/** Locks the user's customer row until the transaction ends: checkouts and stored subscriptions queue on it. */
export async function lockCustomer(tx: Prisma.TransactionClient, userId: string): Promise<void> {
  await tx.$queryRaw`SELECT 1 FROM customers WHERE user_id = ${userId} FOR UPDATE`;
}

const choiceOf = ({
  plan,
  interval,
  currency,
}: {
  plan: string | null;
  interval: string | null;
  currency: string | null;
}) => (plan && interval && currency ? ({ plan, interval, currency } as CheckoutInput) : null);

/**
 * The user's open checkout, or a new one reserved for `choice`; refuses (ALREADY_SUBSCRIBED_PLAN) while a
 * subscription of theirs runs. Undefined when another request reserved one at the same moment (ask again).
 * The user's customer row must exist.
 */
export async function holdCheckout(db: Db, userId: string, choice: CheckoutInput): Promise<HeldCheckout | undefined> {
  try {
    return await db.$transaction(async (tx) => {
      await lockCustomer(tx, userId);
      const running = await tx.subscription.count({ where: { userId, status: { in: [...RUNNING_STATUSES] } } });
      if (running > 0) throw alreadySubscribed();
      const now = new Date();
      await tx.checkout.updateMany({
        where: { userId, status: 'open', expiresAt: { lte: now } },
        data: { status: 'expired' },
      });
      const open = await tx.checkout.findFirst({ where: { userId, status: 'open' } });
      if (open) {
        const { id, sessionId, expiresAt } = open;
        return { id, sessionId, expiresAt, choice: choiceOf(open), reserved: false };
      }
      const id = randomUUID();
      const expiresAt = new Date(now.getTime() + CHECKOUT_LIFETIME_MS);
      await tx.checkout.create({ data: { id, userId, status: 'open', expiresAt, ...choice } });
      return { id, sessionId: null, expiresAt, choice, reserved: true };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return undefined;
    throw error;
  }
}

/**
 * Records the session Stripe made for a checkout; false when the checkout is no longer open (given up, or
 * closed by another request meanwhile), so its session must not be offered.
 */
export async function attachSession(db: Db, checkoutId: string, session: Stripe.Checkout.Session): Promise<boolean> {
  const { count } = await db.checkout.updateMany({
    where: { id: checkoutId, status: 'open' },
    data: { sessionId: session.id, expiresAt: new Date(session.expires_at * 1000) },
  });
  return count === 1;
}

/** Gives up a reservation whose session Stripe did not make, so the learner can try again at once. */
export async function releaseCheckout(db: Db, checkoutId: string): Promise<void> {
  await db.checkout.deleteMany({ where: { id: checkoutId, sessionId: null } });
}

/**
 * The session was paid or expired (a webhook said so, or billing found or made it so): it no longer holds
 * back a new checkout. Paid wins over an expiry this service assumed from the clock.
 */
export async function closeCheckout(
  tx: Prisma.TransactionClient,
  sessionId: string,
  status: 'complete' | 'expired',
): Promise<void> {
  await tx.checkout.updateMany({
    where: { sessionId, status: status === 'complete' ? { not: 'complete' } : 'open' },
    data: { status },
  });
}
