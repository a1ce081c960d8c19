// The checkouts a user opens: at most one open at a time, and none while a subscription of theirs runs, so
// two tabs (or a second click before the first webhook) cannot start a second subscription. The check and
// the reservation are one transaction under a lock on the user's customer row, which webhooks take too
// before they store a subscription, and a partial unique index keeps a second open checkout out whatever
// happens. Stripe is called outside that transaction: the checkout is reserved first, its session
// attached once Stripe has made it.
import { randomUUID } from 'node:crypto';
import { BILLING_REASONS } from '@engram/contracts/billing';
import { FailedPrecondition } from '@engram/kit/errors';
import type Stripe from 'stripe';
import type { Db, Prisma } from './db.js';
import { RUNNING_STATUSES } from './domain/subscription-state.js';

/**
 * How long a checkout stays payable: ample to pay, and an abandoned checkout holds back a new one no
 * longer than this (Stripe allows 30 minutes to 24 hours; its default, a day, would hold it back a day).
 */
export const CHECKOUT_LIFETIME_MS = 60 * 60_000;

const alreadySubscribed = () =>
  new FailedPrecondition("You're already subscribed to this plan", BILLING_REASONS.alreadySubscribed);

const isUniqueViolation = (error: unknown) => (error as { code?: string } | null)?.code === 'P2002';

/** Locks the user's customer row until the transaction ends: checkouts and stored subscriptions queue on it. */
export async function lockCustomer(tx: Prisma.TransactionClient, userId: string): Promise<void> {
  await tx.$queryRaw`SELECT 1 FROM customers WHERE user_id = ${userId} FOR UPDATE`;
}

/**
 * Reserves the user's one open checkout, or refuses (ALREADY_SUBSCRIBED_PLAN) while a subscription of
 * theirs runs or another checkout is open. The user's customer row must exist.
 */
export async function reserveCheckout(db: Db, userId: string): Promise<{ id: string; expiresAt: Date }> {
  const id = randomUUID();
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
      const expiresAt = new Date(now.getTime() + CHECKOUT_LIFETIME_MS);
      await tx.checkout.create({ data: { id, userId, status: 'open', expiresAt } });
      return { id, expiresAt };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadySubscribed();
    throw error;
  }
}

/** Records the session Stripe made for a reserved checkout. */
export async function attachSession(db: Db, checkoutId: string, session: Stripe.Checkout.Session): Promise<void> {
  await db.checkout.update({
    where: { id: checkoutId },
    data: { sessionId: session.id, expiresAt: new Date(session.expires_at * 1000) },
  });
}

/** Gives up a reservation whose session Stripe did not make, so the learner can try again at once. */
export async function releaseCheckout(db: Db, checkoutId: string): Promise<void> {
  await db.checkout.deleteMany({ where: { id: checkoutId, sessionId: null } });
}

/**
 * A webhook said the session was paid or expired: it no longer holds back a new checkout. Paid wins over
 * an expiry this service assumed from the clock.
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
