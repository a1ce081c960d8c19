// One Stripe customer per user, created once and reused. Concurrent first checkouts of one user queue on
// a per-user lock, so the second finds the first's customer; the Stripe call also carries an
// idempotency key made from the user id, so even a retry after a lost answer creates no second one.
import type Stripe from 'stripe';
import type { Db } from './db.js';

export async function customerOf(db: Db, userId: string): Promise<string | undefined> {
  return (await db.customer.findUnique({ where: { userId } }))?.stripeCustomerId;
}

export async function ensureCustomer(db: Db, stripe: Stripe, user: { id: string; email: string }): Promise<string> {
  const known = await customerOf(db, user.id);
  if (known) return known;
  return db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`billing-customer:${user.id}`}))`;
      const existing = await tx.customer.findUnique({ where: { userId: user.id } });
      if (existing) return existing.stripeCustomerId;
      const created = await stripe.customers.create(
        { email: user.email, metadata: { userId: user.id } },
        { idempotencyKey: `engram-customer-${user.id}` },
      );
      await tx.customer.create({ data: { userId: user.id, stripeCustomerId: created.id, email: user.email } });
      return created.id;
    },
    { maxWait: 10_000, timeout: 30_000 },
  );
}
