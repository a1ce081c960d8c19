// Stripe's webhooks, handled exactly once each: the signature is verified by the SDK (300 s tolerance),
// the event's id is recorded in the transaction that applies it (a duplicate, even one arriving at the
// same moment, waits on that record and then changes nothing), and the subscription is always read
// afresh from Stripe under a per-subscription lock, so events arriving out of order still leave the
// latest state.

import { prismaTransaction } from '@engram/kit/events/outbox';
import type { Logger } from '@engram/kit/logger';
import type Stripe from 'stripe';
import type { PriceIds } from './config.js';
import type { Db } from './db.js';
import { storeSubscription } from './subscriptions.js';
import type { WebhookOutcome } from './webhook-http.js';

/** Stripe's default and maximum tolerated age of a signature, in seconds. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

interface Deps {
  db: Db;
  stripe: Stripe;
  webhookSecret: string;
  prices: PriceIds;
  logger: Logger;
}

/** The advisory lock that serializes everything done to one subscription. */
export const subscriptionLock = (subscriptionId: string) => `billing-subscription:${subscriptionId}`;

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : value?.id);

/** The subscription an event is about, if any (the events Engram's webhook endpoint subscribes to). */
function subscriptionOf(event: Stripe.Event): string | undefined {
  switch (event.type) {
    case 'checkout.session.completed':
      return idOf(event.data.object.subscription);
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
    case 'customer.subscription.trial_will_end':
      return event.data.object.id;
    case 'invoice.paid':
    case 'invoice.payment_failed':
      return idOf(event.data.object.parent?.subscription_details?.subscription);
    default:
      return undefined;
  }
}

export function createWebhookHandler(deps: Deps) {
  return async (body: Buffer, signature: string | undefined): Promise<WebhookOutcome> => {
    let event: Stripe.Event;
    try {
      event = deps.stripe.webhooks.constructEvent(
        body,
        signature ?? '',
        deps.webhookSecret,
        SIGNATURE_TOLERANCE_SECONDS,
      );
    } catch (error) {
      deps.logger.warn({ err: error }, 'refused a Stripe webhook: its signature does not verify');
      return { refused: 'The webhook signature is missing, stale, or does not match its body.' };
    }
    const subscriptionId = subscriptionOf(event);
    const logger = deps.logger.child({ stripe_event: event.id, type: event.type });
    return prismaTransaction(
      deps.db,
      async (tx) => {
        const recorded = await tx.webhookEvent.createMany({
          data: [{ id: event.id, type: event.type }],
          skipDuplicates: true,
        });
        if (recorded.count === 0) return 'duplicate';
        if (!subscriptionId) return 'ignored';
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${subscriptionLock(subscriptionId)}))`;
        const subscription = await deps.stripe.subscriptions.retrieve(subscriptionId);
        await storeSubscription(tx, subscription, { prices: deps.prices, logger });
        if (event.type === 'customer.subscription.trial_will_end') logger.info('a trial ends in three days');
        logger.info({ subscription: subscriptionId, status: subscription.status }, 'Stripe webhook applied');
        return 'applied';
      },
      // Reading the subscription from Stripe happens inside: allow for a slow answer and its retries.
      { maxWait: 5_000, timeout: 30_000 },
    );
  };
}
