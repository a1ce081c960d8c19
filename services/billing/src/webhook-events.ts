// Stripe's webhooks, handled exactly once each: the signature is verified by the SDK (300 s tolerance),
// the event's id is recorded in the transaction that applies it (a duplicate, even one arriving at the
// same moment, changes nothing), and the subscription is always read afresh from Stripe, so events
// arriving out of order still leave the latest state. Stripe is called with no transaction open (a slow
// answer holds no connection or lock): the read comes first, then a short transaction under a
// per-subscription lock stores it only if nobody stored the subscription since the read began (its
// version), else the read is made again. A second running subscription of one user is refunded and
// cancelled at Stripe between two such reads (second-subscription.ts).

import { prismaTransaction } from '@engram/kit/events/outbox';
import type { Logger } from '@engram/kit/logger';
import type Stripe from 'stripe';
import { closeCheckout } from './checkouts.js';
import type { PriceIds } from './config.js';
import type { Db, Prisma } from './db.js';
import { undoSecondSubscription } from './second-subscription.js';
import { SecondSubscription, storedVersion, storeSubscription } from './subscriptions.js';
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

/** The advisory lock that serializes everything written about one subscription. */
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

/** Reads of one event's subscription before giving up (Stripe delivers the event again later). */
const MAX_READS = 5;

/** Records the event as handled; false when it already was (a concurrent delivery waits here on the key). */
async function record(tx: Prisma.TransactionClient, event: Stripe.Event): Promise<boolean> {
  const recorded = await tx.webhookEvent.createMany({
    data: [{ id: event.id, type: event.type }],
    skipDuplicates: true,
  });
  return recorded.count === 1;
}

/** What the event says about one of the user's checkouts, if anything. */
function checkoutClosedBy(event: Stripe.Event): { sessionId: string; status: 'complete' | 'expired' } | undefined {
  if (event.type === 'checkout.session.completed') return { sessionId: event.data.object.id, status: 'complete' };
  if (event.type === 'checkout.session.expired') return { sessionId: event.data.object.id, status: 'expired' };
  return undefined;
}

async function applyWithoutSubscription(deps: Deps, event: Stripe.Event): Promise<WebhookOutcome> {
  return prismaTransaction(deps.db, async (tx) => {
    if (!(await record(tx, event))) return 'duplicate';
    const closed = checkoutClosedBy(event);
    if (!closed) return 'ignored';
    await closeCheckout(tx, closed.sessionId, closed.status);
    return 'applied';
  });
}

async function applyToSubscription(
  deps: Deps,
  event: Stripe.Event,
  subscriptionId: string,
  logger: Logger,
): Promise<WebhookOutcome> {
  for (let read = 1; read <= MAX_READS; read += 1) {
    const seen = await storedVersion(deps.db, subscriptionId);
    const subscription = await deps.stripe.subscriptions.retrieve(subscriptionId);
    try {
      const outcome = await prismaTransaction(deps.db, async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${subscriptionLock(subscriptionId)}))`;
        if ((await storedVersion(tx, subscriptionId)) !== seen) return 'stale';
        if (!(await record(tx, event))) return 'duplicate';
        await storeSubscription(tx, subscription, { prices: deps.prices, logger });
        const closed = checkoutClosedBy(event);
        if (closed) await closeCheckout(tx, closed.sessionId, closed.status);
        return 'applied';
      });
      if (outcome === 'stale') continue;
      if (outcome === 'applied') {
        if (event.type === 'customer.subscription.trial_will_end') logger.info('a trial ends in three days');
        logger.info({ subscription: subscriptionId, status: subscription.status }, 'Stripe webhook applied');
      }
      return outcome;
    } catch (error) {
      if (!(error instanceof SecondSubscription)) throw error;
      await undoSecondSubscription(deps.stripe, subscription, error.kept, logger.child({ user: error.userId }));
    }
  }
  throw new Error(`subscription ${subscriptionId} changed under each of ${MAX_READS} reads; Stripe will deliver again`);
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
    // Spares Stripe a read for a redelivery; a duplicate arriving at the same moment is caught by record().
    if ((await deps.db.webhookEvent.count({ where: { id: event.id } })) > 0) return 'duplicate';
    const subscriptionId = subscriptionOf(event);
    if (!subscriptionId) return applyWithoutSubscription(deps, event);
    const logger = deps.logger.child({ stripe_event: event.id, type: event.type });
    return applyToSubscription(deps, event, subscriptionId, logger);
  };
}
