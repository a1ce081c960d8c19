// A subscription as Stripe has it, written into billing's table, and the user's plan as it follows from
// their subscriptions. When the plan, its state or its period changes, SubscriptionChanged is enqueued in
// the same transaction, so services that enforce plan limits follow at once. A user has one running
// subscription: a second one (two checkouts paid in two tabs) is not stored but refused to the caller,
// which cancels and refunds it (second-subscription.ts).
import { SubscriptionChanged } from '@engram/contracts/events';
import { enqueueEvent } from '@engram/kit/events/outbox';
import type { Logger } from '@engram/kit/logger';
import type Stripe from 'stripe';
import type { PriceIds } from './config.js';
import type { Prisma } from './db.js';
import { currentSubscription, periodOf, planOf, RUNNING_STATUSES, runs, stateOf } from './domain/subscription-state.js';

type Tx = Prisma.TransactionClient;

/** A running subscription of a user who already has another, the one kept: the first Engram stored. */
export class SecondSubscription extends Error {
  readonly userId: string;
  readonly kept: string;
  constructor(subscription: Stripe.Subscription, userId: string, kept: string) {
    super(`subscription ${subscription.id} is a second running subscription of ${userId}, who keeps ${kept}`);
    this.name = 'SecondSubscription';
    this.userId = userId;
    this.kept = kept;
  }
}

/** How many times the subscription was stored (none: never). */
export async function storedVersion(db: Pick<Tx, 'subscription'>, id: string): Promise<number | undefined> {
  return (await db.subscription.findUnique({ where: { id }, select: { version: true } }))?.version;
}

/** The user's plan, its state and period, from their stored subscriptions. */
export async function standingOf(tx: Pick<Tx, 'subscription'>, userId: string) {
  const subscription = currentSubscription(await tx.subscription.findMany({ where: { userId } }));
  const period = periodOf(subscription);
  return {
    subscription,
    plan: planOf(subscription),
    state: subscription ? stateOf(subscription) : undefined,
    periodStart: period.start,
    periodEnd: period.end,
  };
}

type Standing = Awaited<ReturnType<typeof standingOf>>;

const sameStanding = (a: Standing, b: Standing) =>
  a.plan === b.plan &&
  a.state === b.state &&
  a.periodStart.getTime() === b.periodStart.getTime() &&
  a.periodEnd.getTime() === b.periodEnd.getTime();

const seconds = (value: number | null | undefined) => (value ? new Date(value * 1000) : null);

/**
 * Stores `subscription` (read from Stripe just now) for the user whose customer it belongs to. Checkout
 * creates the customer row before the subscription can exist, so a subscription without one belongs to
 * an account deleted meanwhile (its cancellation's own webhook comes after the erasure) or was made
 * outside Engram: logged and left out, as is one to a price that is not one of Engram's plans. Throws
 * SecondSubscription, storing nothing, for a running subscription of a user who has another.
 */
export async function storeSubscription(
  tx: Tx,
  subscription: Stripe.Subscription,
  context: { prices: PriceIds; logger: Logger },
): Promise<void> {
  const customerId = typeof subscription.customer === 'string' ? subscription.customer : subscription.customer.id;
  // The customer row's lock makes deciding and storing one step per user (checkouts.ts takes it too).
  const [customer] = await tx.$queryRaw<{ user_id: string }[]>`
    SELECT user_id FROM customers WHERE stripe_customer_id = ${customerId} FOR UPDATE`;
  const userId = customer?.user_id;
  const item = subscription.items.data[0];
  const ours = item ? context.prices.lookUp(item.price.id) : undefined;
  if (!userId || !item || !ours) {
    context.logger.warn(
      { subscription: subscription.id, customer: customerId, price: item?.price.id },
      'a Stripe subscription of no Engram user or plan; ignored',
    );
    return;
  }
  if (runs(subscription)) {
    const other = await tx.subscription.findFirst({
      where: { userId, id: { not: subscription.id }, status: { in: [...RUNNING_STATUSES] } },
      orderBy: { createdAt: 'asc' },
    });
    const stored = await tx.subscription.findUnique({ where: { id: subscription.id } });
    if (other && !(stored && runs(stored))) throw new SecondSubscription(subscription, userId, other.id);
  }
  const before = await standingOf(tx, userId);
  const fields = {
    userId,
    stripeCustomerId: customerId,
    priceId: item.price.id,
    ...ours,
    status: subscription.status,
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    currentPeriodStart: new Date(item.current_period_start * 1000),
    currentPeriodEnd: new Date(item.current_period_end * 1000),
    endedAt: seconds(subscription.ended_at),
  };
  await tx.subscription.upsert({
    where: { id: subscription.id },
    create: { id: subscription.id, ...fields, version: 1 },
    update: { ...fields, version: { increment: 1 } },
  });
  const after = await standingOf(tx, userId);
  if (sameStanding(before, after)) return;
  await enqueueEvent(tx, SubscriptionChanged, {
    userId,
    plan: after.plan,
    state: after.state ?? 'not_active',
    periodStart: after.periodStart,
    periodEnd: after.periodEnd,
  });
}
