// The events billing takes part in: it publishes SubscriptionChanged (subscriptions.ts), and when an
// account is deleted it cancels the user's subscriptions at Stripe (no more charges) and forgets them.
// Beside the outbox, the pruner forgets the Stripe events it handled (webhook_events) after 30 days.
import { UserDeleted } from '@engram/contracts/events';
import { prismaTransactions } from '@engram/kit/events/apply-once';
import { forgetPublishedEvents, recordErasure } from '@engram/kit/events/erased-users';
import type { RetainedRecords } from '@engram/kit/events/outbox-prune';
import type { EventsDeclaration } from '@engram/kit/events/runtime';
import { on } from '@engram/kit/events/subscriptions';
import type { Logger } from '@engram/kit/logger';
import Stripe from 'stripe';
import type { Db, Prisma } from '../db.js';
import { subscriptionLock } from '../webhook-events.js';

/**
 * Stops every charge and forgets the user: their Stripe customer is deleted (which cancels each of its
 * subscriptions, even one whose checkout completed a moment ago), then their rows. The user's known
 * subscriptions are locked first, as webhooks lock them, so a webhook racing the erasure either lands
 * before it or finds no customer afterwards and changes nothing. A repeat finds nothing left to do. The
 * published SubscriptionChanged rows about the user go too, and the erasure is recorded as a hash of the id.
 */
export async function eraseBillingUser(tx: Prisma.TransactionClient, stripe: Stripe, userId: string, logger: Logger) {
  await recordErasure(tx, userId);
  for (const { id } of await tx.subscription.findMany({ where: { userId }, select: { id: true } })) {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${subscriptionLock(id)}))`;
  }
  const customer = await tx.customer.findUnique({ where: { userId } });
  if (customer) {
    try {
      await stripe.customers.del(customer.stripeCustomerId);
    } catch (error) {
      // "No such customer": deleted at Stripe already (a repeat of this erasure, or by hand), nothing more
      // to stop. Any other failure leaves the customer charging, so the erasure fails and is tried again.
      if (!(error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing')) throw error;
      logger.info({ customer: customer.stripeCustomerId, err: error }, 'the Stripe customer was already deleted');
    }
  }
  await tx.subscription.deleteMany({ where: { userId } });
  await tx.customer.deleteMany({ where: { userId } });
  await forgetPublishedEvents(tx, [userId]);
}

/**
 * Stripe retries an undelivered webhook for up to three days; a record kept ten times as long outlives
 * every retry. (An event arriving later still changes nothing: the subscription is read again from Stripe.)
 */
export const WEBHOOK_EVENTS_RETENTION_MS = 30 * 86_400_000;

export const billingRecords: RetainedRecords[] = [
  { table: 'webhook_events', column: 'received_at', retentionMs: WEBHOOK_EVENTS_RETENTION_MS },
];

export function billingEvents(db: Db, stripe: Stripe, logger: Logger): EventsDeclaration<Prisma.TransactionClient> {
  return {
    relay: true,
    records: billingRecords,
    transactions: prismaTransactions(db),
    consumers: [
      {
        purpose: 'erase-user',
        subscriptions: [on(UserDeleted, (payload, { tx }) => eraseBillingUser(tx, stripe, payload.userId, logger))],
      },
    ],
  };
}
