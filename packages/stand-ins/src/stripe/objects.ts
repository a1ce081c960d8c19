// The stand-in's Stripe objects and what can happen to them: customers, checkout sessions, subscriptions
// with their invoices and the payments of those, refunds, portal sessions, and the events each change
// produces (snapshots of the object at that moment, as Stripe sends them). Plain JSON, so the whole state
// can be saved and loaded again.
import { randomBytes } from 'node:crypto';
import type { StandInPrice } from './prices.js';

type Json = Record<string, unknown>;

export interface StandInEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  type: string;
  livemode: false;
  pending_webhooks: number;
  request: { id: null; idempotency_key: null };
  data: { object: Json };
}

export interface StandInState {
  customers: Record<string, Json>;
  sessions: Record<string, Json>;
  subscriptions: Record<string, Json>;
  invoices: Record<string, Json>;
  /** An invoice's payments (Stripe's InvoicePayment), each through a payment intent. */
  invoicePayments: Record<string, Json>;
  paymentIntents: Record<string, Json>;
  refunds: Record<string, Json>;
  portalSessions: Record<string, Json>;
}

export const emptyState = (): StandInState => ({
  customers: {},
  sessions: {},
  subscriptions: {},
  invoices: {},
  invoicePayments: {},
  paymentIntents: {},
  refunds: {},
  portalSessions: {},
});

/** A Stripe-shaped error the API answers with (`status` is the HTTP status). */
export class StripeApiError extends Error {
  readonly status: number;
  readonly param: string | undefined;
  readonly code: string | undefined;
  readonly type: string;
  constructor(status: number, message: string, param?: string, details: { code?: string; type?: string } = {}) {
    super(message);
    this.status = status;
    this.param = param;
    this.code = 'code' in details ? details.code : status === 404 ? 'resource_missing' : 'parameter_invalid';
    this.type = details.type ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
  }
}

export const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);
const clone = <T>(value: T): T => structuredClone(value);

/** The end of a period that starts at `start` (seconds) and lasts one `interval`. */
export function periodEnd(start: number, interval: string): number {
  const date = new Date(start * 1000);
  if (interval === 'year') date.setUTCFullYear(date.getUTCFullYear() + 1);
  else date.setUTCMonth(date.getUTCMonth() + 1);
  return Math.floor(date.getTime() / 1000);
}

export function found(collection: Record<string, Json>, id: string, what: string): Json {
  const object = collection[id];
  if (!object) throw new StripeApiError(404, `No such ${what}: '${id}'`, 'id');
  return object;
}

export function makeEvent(apiVersion: string, type: string, object: Json): StandInEvent {
  return {
    id: newId('evt'),
    object: 'event',
    api_version: apiVersion,
    created: now(),
    type,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object: clone(object) },
  };
}

export function newCustomer(params: Json): Json {
  return {
    id: newId('cus'),
    object: 'customer',
    created: now(),
    email: params.email ?? null,
    name: params.name ?? null,
    metadata: (params.metadata as Json) ?? {},
    livemode: false,
  };
}

export function newSubscription(customer: string, price: StandInPrice, metadata: Json): Json {
  const start = now();
  return {
    id: newId('sub'),
    object: 'subscription',
    customer,
    status: 'active',
    cancel_at_period_end: false,
    cancel_at: null,
    canceled_at: null,
    ended_at: null,
    created: start,
    start_date: start,
    currency: price.currency,
    metadata,
    livemode: false,
    latest_invoice: null,
    items: {
      object: 'list',
      has_more: false,
      url: '/v1/subscription_items',
      data: [
        {
          id: newId('si'),
          object: 'subscription_item',
          price: clone(price),
          quantity: 1,
          current_period_start: start,
          current_period_end: periodEnd(start, price.recurring.interval),
        },
      ],
    },
  };
}

/** The first item of a subscription: Engram's subscriptions have exactly one. */
export const itemOf = (subscription: Json) =>
  (subscription.items as { data: Json[] }).data[0] as Json & {
    price: StandInPrice;
    current_period_start: number;
    current_period_end: number;
  };

/** What the learner paid an invoice with: a succeeded payment intent, refundable until refunded in full. */
export function newPaymentIntent(invoice: Json): Json {
  return {
    id: newId('pi'),
    object: 'payment_intent',
    amount: invoice.amount_paid,
    amount_received: invoice.amount_paid,
    currency: invoice.currency,
    customer: invoice.customer,
    status: 'succeeded',
    created: now(),
    livemode: false,
  };
}

export function newInvoicePayment(invoice: Json, paymentIntent: Json): Json {
  return {
    id: newId('inpay'),
    object: 'invoice_payment',
    amount_paid: invoice.amount_paid,
    amount_requested: invoice.amount_due,
    currency: invoice.currency,
    invoice: invoice.id,
    is_default: true,
    livemode: false,
    payment: { type: 'payment_intent', payment_intent: paymentIntent.id },
    status: 'paid',
    status_transitions: { canceled_at: null, paid_at: now() },
    created: now(),
  };
}

export function newInvoice(subscription: Json, status: 'paid' | 'open'): Json {
  const item = itemOf(subscription);
  return {
    id: newId('in'),
    object: 'invoice',
    customer: subscription.customer,
    status,
    currency: item.price.currency,
    amount_due: item.price.unit_amount,
    amount_paid: status === 'paid' ? item.price.unit_amount : 0,
    created: now(),
    period_start: item.current_period_start,
    period_end: item.current_period_end,
    parent: { type: 'subscription_details', subscription_details: { subscription: subscription.id, metadata: {} } },
    livemode: false,
  };
}
