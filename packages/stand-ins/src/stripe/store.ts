// What can happen in the stand-in, each change returning the events Stripe would send for it: a
// checkout paid or expired, a subscription cancelled at period end or resumed, switched to another price,
// renewed, failing its renewal, or cancelled at once, and a payment refunded.
import {
  emptyState,
  found,
  itemOf,
  makeEvent,
  newCustomer,
  newId,
  newInvoice,
  newInvoicePayment,
  newPaymentIntent,
  newSubscription,
  periodEnd,
  type StandInEvent,
  type StandInState,
  StripeApiError,
} from './objects.js';
import type { StandInPrice } from './prices.js';

type Json = Record<string, unknown>;
const now = () => Math.floor(Date.now() / 1000);

/** How long a checkout session may stay open: Stripe's default, its longest and its shortest, in seconds. */
const SESSION_LIFETIME = { default: 24 * 3600, max: 24 * 3600, min: 30 * 60 };

const list = (url: string, data: Json[]) => ({ object: 'list', data, has_more: false, url });

export class StandInStore {
  readonly apiVersion: string;
  readonly state: StandInState;
  /** The catalogue, changeable like Stripe's (a new amount on the same price id). */
  readonly prices: StandInPrice[];
  constructor(apiVersion: string, prices: StandInPrice[], state: StandInState = emptyState()) {
    this.apiVersion = apiVersion;
    this.prices = prices;
    this.state = state;
  }

  price(id: unknown): StandInPrice {
    const price = this.prices.find((candidate) => candidate.id === id);
    if (!price) throw new StripeApiError(404, `No such price: '${String(id)}'`, 'price');
    return price;
  }

  private event(type: string, object: Json): StandInEvent {
    return makeEvent(this.apiVersion, type, object);
  }

  customer(id: string) {
    return found(this.state.customers, id, 'customer');
  }

  createCustomer(params: Json) {
    const customer = newCustomer(params);
    this.state.customers[customer.id as string] = customer;
    return { object: customer, events: [this.event('customer.created', customer)] };
  }

  /** Deleting a customer cancels every subscription it still has, as Stripe does. */
  deleteCustomer(id: string) {
    this.customer(id);
    const events = this.subscriptionsOf(id)
      .filter((subscription) => subscription.status !== 'canceled')
      .flatMap((subscription) => this.cancelSubscription(subscription.id as string).events);
    delete this.state.customers[id];
    const deleted = { id, object: 'customer', deleted: true };
    return { object: deleted, events: [...events, this.event('customer.deleted', deleted)] };
  }

  session(id: string) {
    return found(this.state.sessions, id, 'checkout.session');
  }

  createCheckoutSession(params: Json, pageUrl: (id: string) => string) {
    if (params.mode !== 'subscription') throw new StripeApiError(400, 'Only subscription mode is supported.', 'mode');
    if (typeof params.customer !== 'string') throw new StripeApiError(400, 'A customer is required.', 'customer');
    this.customer(params.customer);
    const items = params.line_items as Json[] | undefined;
    if (items?.length !== 1) throw new StripeApiError(400, 'Exactly one line item is required.', 'line_items');
    const price = this.price(items[0]?.price);
    for (const url of ['success_url', 'cancel_url']) {
      if (typeof params[url] !== 'string') throw new StripeApiError(400, `Missing required param: ${url}.`, url);
    }
    const created = now();
    const expiresAt = params.expires_at === undefined ? created + SESSION_LIFETIME.default : Number(params.expires_at);
    if (
      !Number.isInteger(expiresAt) ||
      expiresAt < created + SESSION_LIFETIME.min ||
      expiresAt > created + SESSION_LIFETIME.max
    ) {
      throw new StripeApiError(
        400,
        'The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.',
        'expires_at',
      );
    }
    const id = newId('cs_test');
    const session: Json = {
      id,
      object: 'checkout.session',
      mode: 'subscription',
      status: 'open',
      payment_status: 'unpaid',
      customer: params.customer,
      client_reference_id: params.client_reference_id ?? null,
      currency: price.currency,
      amount_total: price.unit_amount,
      line_items_price: price.id,
      allow_promotion_codes: params.allow_promotion_codes === 'true',
      automatic_tax: { enabled: (params.automatic_tax as Json | undefined)?.enabled === 'true' },
      subscription: null,
      subscription_metadata: (params.subscription_data as Json | undefined)?.metadata ?? {},
      metadata: params.metadata ?? {},
      success_url: params.success_url,
      cancel_url: params.cancel_url,
      url: pageUrl(id),
      created,
      expires_at: expiresAt,
      livemode: false,
    };
    this.state.sessions[id] = session;
    return { object: session, events: [] };
  }

  /** The learner paid: the subscription starts with its first invoice paid. */
  payCheckout(id: string) {
    const session = this.session(id);
    if (session.status === 'open' && (session.expires_at as number) <= now()) this.expireCheckout(id);
    if (session.status !== 'open') throw new StripeApiError(400, 'This checkout session is no longer open.');
    const subscription = newSubscription(
      session.customer as string,
      this.price(session.line_items_price),
      session.subscription_metadata as Json,
    );
    this.state.subscriptions[subscription.id as string] = subscription;
    const invoice = this.bill(subscription, 'paid');
    // As at Stripe, only an open session has a URL to pay at.
    Object.assign(session, { status: 'complete', payment_status: 'paid', subscription: subscription.id, url: null });
    return {
      object: session,
      events: [
        this.event('customer.subscription.created', subscription),
        this.event('invoice.paid', invoice),
        this.event('checkout.session.completed', session),
      ],
    };
  }

  /**
   * The session was left unpaid until its expiry, or expired through the API (POST …/expire): it can no
   * longer be paid.
   */
  expireCheckout(id: string) {
    const session = this.session(id);
    if (session.status !== 'open') throw new StripeApiError(400, 'Only open checkout sessions can be expired.');
    Object.assign(session, { status: 'expired', url: null });
    return { object: session, events: [this.event('checkout.session.expired', session)] };
  }

  subscription(id: string) {
    return found(this.state.subscriptions, id, 'subscription');
  }

  /** The subscription's next invoice, its latest from now on; a paid one with its payment. */
  private bill(subscription: Json, status: 'paid' | 'open') {
    const invoice = newInvoice(subscription, status);
    subscription.latest_invoice = invoice.id;
    this.state.invoices[invoice.id as string] = invoice;
    if (status === 'paid') {
      const paymentIntent = newPaymentIntent(invoice);
      const payment = newInvoicePayment(invoice, paymentIntent);
      this.state.paymentIntents[paymentIntent.id as string] = paymentIntent;
      this.state.invoicePayments[payment.id as string] = payment;
    }
    return invoice;
  }

  /** GET /v1/invoice_payments: an invoice's payments, optionally only those of one status. */
  invoicePayments(params: Json) {
    if (typeof params.invoice !== 'string') throw new StripeApiError(400, 'An invoice is required.', 'invoice');
    const payments = Object.values(this.state.invoicePayments).filter(
      (payment) =>
        payment.invoice === params.invoice && (params.status === undefined || payment.status === params.status),
    );
    return list('/v1/invoice_payments', payments);
  }

  /** Gives back a payment intent's amount (all that is left of it unless `amount` says less). */
  refund(params: Json) {
    if (typeof params.payment_intent !== 'string') {
      throw new StripeApiError(400, 'A payment_intent is required.', 'payment_intent');
    }
    const paymentIntent = found(this.state.paymentIntents, params.payment_intent, 'payment_intent');
    const refunded = Object.values(this.state.refunds)
      .filter((refund) => refund.payment_intent === paymentIntent.id)
      .reduce((sum, refund) => sum + (refund.amount as number), 0);
    const left = (paymentIntent.amount_received as number) - refunded;
    if (left <= 0) {
      throw new StripeApiError(400, `Charge for ${String(paymentIntent.id)} has already been refunded.`, undefined, {
        code: 'charge_already_refunded',
      });
    }
    const amount = params.amount === undefined ? left : Number(params.amount);
    if (!Number.isInteger(amount) || amount <= 0 || amount > left) {
      throw new StripeApiError(400, `Refund amount must be between 1 and ${left}.`, 'amount');
    }
    const refund = {
      id: newId('re'),
      object: 'refund',
      amount,
      currency: paymentIntent.currency,
      payment_intent: paymentIntent.id,
      reason: params.reason ?? null,
      metadata: (params.metadata as Json) ?? {},
      status: 'succeeded',
      created: now(),
    };
    this.state.refunds[refund.id] = refund;
    return { object: refund, events: [this.event('refund.created', refund)] };
  }

  private live(id: string) {
    const subscription = this.subscription(id);
    if (subscription.status === 'canceled') {
      throw new StripeApiError(400, 'A canceled subscription can only update its cancellation_details.');
    }
    return subscription;
  }

  updateSubscription(id: string, params: Json) {
    const subscription = this.live(id);
    if (params.cancel_at_period_end !== undefined) {
      const cancel = params.cancel_at_period_end === 'true' || params.cancel_at_period_end === true;
      subscription.cancel_at_period_end = cancel;
      subscription.cancel_at = cancel ? itemOf(subscription).current_period_end : null;
      subscription.canceled_at = cancel ? now() : null;
    }
    const price = (params.items as Json[] | undefined)?.[0]?.price ?? params.price;
    if (price !== undefined) itemOf(subscription).price = this.price(price);
    return { object: subscription, events: [this.event('customer.subscription.updated', subscription)] };
  }

  cancelSubscription(id: string) {
    const subscription = this.live(id);
    Object.assign(subscription, {
      status: 'canceled',
      canceled_at: now(),
      ended_at: now(),
      cancel_at_period_end: false,
    });
    return { object: subscription, events: [this.event('customer.subscription.deleted', subscription)] };
  }

  /** DELETE /v1/subscriptions/:id: as at Stripe, one cancelled already is "No such subscription". */
  cancelThroughApi(id: string) {
    if (this.subscription(id).status === 'canceled')
      throw new StripeApiError(404, `No such subscription: '${id}'`, 'id');
    return this.cancelSubscription(id);
  }

  /** The period ends: renewed with a paid invoice, or ended when it was scheduled to cancel. */
  renew(id: string) {
    const subscription = this.live(id);
    if (subscription.cancel_at_period_end) return this.cancelSubscription(id);
    const item = itemOf(subscription);
    item.current_period_start = item.current_period_end;
    item.current_period_end = periodEnd(item.current_period_start, item.price.recurring.interval);
    subscription.status = 'active';
    const invoice = this.bill(subscription, 'paid');
    return {
      object: subscription,
      events: [this.event('invoice.paid', invoice), this.event('customer.subscription.updated', subscription)],
    };
  }

  /** The renewal's payment fails: the invoice stays open and the subscription is past due. */
  failRenewal(id: string) {
    const subscription = this.live(id);
    subscription.status = 'past_due';
    const invoice = this.bill(subscription, 'open');
    return {
      object: subscription,
      events: [
        this.event('invoice.payment_failed', invoice),
        this.event('customer.subscription.updated', subscription),
      ],
    };
  }

  /** Three days before a trial ends Stripe warns; the stand-in can say so on demand. */
  trialWillEnd(id: string) {
    const subscription = this.live(id);
    return { object: subscription, events: [this.event('customer.subscription.trial_will_end', subscription)] };
  }

  portalSession(id: string) {
    return found(this.state.portalSessions, id, 'billing_portal.session');
  }

  createPortalSession(params: Json, pageUrl: (id: string) => string) {
    if (typeof params.customer !== 'string') throw new StripeApiError(400, 'A customer is required.', 'customer');
    this.customer(params.customer);
    const id = newId('bps');
    const session = {
      id,
      object: 'billing_portal.session',
      customer: params.customer,
      return_url: params.return_url ?? null,
      url: pageUrl(id),
      created: now(),
      livemode: false,
    };
    this.state.portalSessions[id] = session;
    return { object: session, events: [] };
  }

  /** The customer's subscriptions, newest first. */
  subscriptionsOf(customer: string) {
    return Object.values(this.state.subscriptions)
      .filter((subscription) => subscription.customer === customer)
      .sort((a, b) => (b.created as number) - (a.created as number));
  }
}
