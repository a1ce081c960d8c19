// What a subscription means to the learner (active, scheduled for cancellation, not active:
// docs/product.md#states-and-transitions),
// which of a user's subscriptions counts, and the period their entitlements run for. Pure functions.
import { FREE_PLAN, type Plan, type PlanOrFree, type SubscriptionState } from '@engram/contracts/billing';

export interface StoredSubscription {
  plan: string;
  interval: string;
  currency: string;
  status: string;
  cancelAtPeriodEnd: boolean;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  endedAt: Date | null;
  updatedAt: Date;
}

/** Stripe's statuses that grant the plan: paid up, or in a trial. Past due, unpaid and the rest do not. */
const ENTITLED = new Set(['active', 'trialing']);

export const entitles = (subscription: Pick<StoredSubscription, 'status'>) => ENTITLED.has(subscription.status);

/**
 * Stripe's statuses of a subscription that still runs and charges (past due keeps retrying its payment):
 * while a user has one, a second would charge them twice.
 */
export const RUNNING_STATUSES: readonly string[] = ['active', 'trialing', 'past_due'];

export const runs = (subscription: Pick<StoredSubscription, 'status'>) =>
  RUNNING_STATUSES.includes(subscription.status);

export function stateOf(subscription: Pick<StoredSubscription, 'status' | 'cancelAtPeriodEnd'>): SubscriptionState {
  if (!entitles(subscription)) return 'not_active';
  return subscription.cancelAtPeriodEnd ? 'scheduled_for_cancellation' : 'active';
}

/** The subscription that decides the user's plan: one that entitles, else the one changed last. */
export function currentSubscription<S extends StoredSubscription>(subscriptions: S[]): S | undefined {
  const byNewest = [...subscriptions].sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime());
  return byNewest.find(entitles) ?? byNewest[0];
}

export function planOf(subscription: StoredSubscription | undefined): PlanOrFree {
  return subscription && entitles(subscription) ? (subscription.plan as Plan) : FREE_PLAN;
}

/** The current period: the subscription's, or the calendar month (UTC) on the free plan. */
export function periodOf(subscription: StoredSubscription | undefined, now = new Date()): { start: Date; end: Date } {
  if (subscription && entitles(subscription)) {
    return { start: subscription.currentPeriodStart, end: subscription.currentPeriodEnd };
  }
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end };
}
