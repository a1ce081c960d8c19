// A second running subscription of one user (two checkouts paid in two tabs, say) is undone at Stripe at
// once: its latest invoice's payments refunded, then the subscription cancelled. Refunds go first, so a
// failure between the two leaves it running, and the webhook that found it (delivered again by Stripe)
// finds it again and finishes. Several deliveries about it may undo it at once: each refund carries an
// idempotency key, and a refund or cancellation Stripe already made is taken as done.
import type { Logger } from '@engram/kit/logger';
import Stripe from 'stripe';

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : value?.id);

async function refundInvoice(stripe: Stripe, invoiceId: string, logger: Logger) {
  for await (const payment of stripe.invoicePayments.list({ invoice: invoiceId, status: 'paid' })) {
    const paymentIntent = idOf(payment.payment.payment_intent);
    const charge = idOf(payment.payment.charge);
    const paid = paymentIntent ? { payment_intent: paymentIntent } : charge ? { charge } : undefined;
    if (!paid) {
      logger.warn({ invoice: invoiceId, payment: payment.id }, 'an invoice payment Engram cannot refund; left alone');
      continue;
    }
    try {
      await stripe.refunds.create(
        { ...paid, reason: 'duplicate' },
        { idempotencyKey: `engram-second-subscription-refund-${payment.id}` },
      );
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'charge_already_refunded')) {
        throw error;
      }
    }
  }
}

export async function undoSecondSubscription(
  stripe: Stripe,
  subscription: Stripe.Subscription,
  kept: string,
  logger: Logger,
): Promise<void> {
  const invoice = idOf(subscription.latest_invoice);
  if (invoice) await refundInvoice(stripe, invoice, logger);
  try {
    await stripe.subscriptions.cancel(subscription.id);
  } catch (error) {
    // Stripe's answer for one cancelled already (by another delivery about the same subscription).
    if (!(error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing')) throw error;
  }
  logger.warn(
    { subscription: subscription.id, kept, invoice },
    'a second subscription of one user: refunded and cancelled, the first one kept',
  );
}
