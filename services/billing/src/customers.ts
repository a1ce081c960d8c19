// One Stripe customer per user, created once and reused. No database transaction is held open while
// Stripe answers: the create call carries an idempotency key made from the user id, so concurrent first
// checkouts of one user, and a retry after a lost answer, all get the one customer Stripe made first
// (Stripe keeps keys for 24 hours; the row below is written long before that). The row is inserted once;
// a second writer finds it there. An account erased meanwhile gets none.
import { wasErased } from '@engram/kit/events/erased-users';
import type Stripe from 'stripe';
import type { Db } from './db.js';

export async function customerOf(db: Db, userId: string): Promise<string | undefined> {
  return (await db.customer.findUnique({ where: { userId } }))?.stripeCustomerId;
}

export async function ensureCustomer(db: Db, stripe: Stripe, user: { id: string; email: string }): Promise<string> {
  const known = await customerOf(db, user.id);
  if (known) return known;
  const created = await stripe.customers.create(
    { email: user.email, metadata: { userId: user.id } },
    { idempotencyKey: `engram-customer-${user.id}` },
  );
  const stored = await db.$transaction(async (tx) => {
    // An account erased while Stripe answered keeps no customer, here or there.
    if (await wasErased(tx, user.id)) return false;
    await tx.customer.createMany({
      data: [{ userId: user.id, stripeCustomerId: created.id, email: user.email }],
      skipDuplicates: true,
    });
    return true;
  });
  if (!stored) {
    await stripe.customers.del(created.id);
    throw new Error('the account was deleted while its Stripe customer was being created');
  }
  return (await customerOf(db, user.id)) ?? created.id;
}
