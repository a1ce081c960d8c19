// The paid plans (docs/product.md#plans-and-billing): plus and pro, each monthly or annual, in US dollars (the
// default), euros or Brazilian reals; the checkout input the web app, the gateway and the billing service agree on;
// and the reasons billing refuses with (the web app's error catalogue keys, docs/product.md#error-catalogue).
import { z } from './zod.ts';

export const PLANS = ['plus', 'pro'] as const;
export type Plan = (typeof PLANS)[number];
/** What a user without a paid subscription has. */
export const FREE_PLAN = 'free';
export type PlanOrFree = Plan | typeof FREE_PLAN;

export const INTERVALS = ['month', 'year'] as const;
export type Interval = (typeof INTERVALS)[number];

export const CURRENCIES = ['usd', 'eur', 'brl'] as const;
export type Currency = (typeof CURRENCIES)[number];
export const DEFAULT_CURRENCY: Currency = 'usd';

/** What a subscription looks like to the learner (docs/product.md#states-and-transitions). */
export const SUBSCRIPTION_STATES = ['active', 'scheduled_for_cancellation', 'not_active'] as const;
export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number];

export const checkoutInput = z.object({
  plan: z.enum(PLANS, 'Plan must be plus or pro.'),
  interval: z.enum(INTERVALS, 'Interval must be month or year.'),
  currency: z.enum(CURRENCIES, 'Currency must be usd, eur or brl.').default(DEFAULT_CURRENCY),
});
export type CheckoutInput = z.infer<typeof checkoutInput>;

/** billing.checkoutSession: the Checkout Session id Stripe put in the success URL. */
export const checkoutSessionInput = z.object({ sessionId: z.string().min(1).max(255) });
export type CheckoutSessionInput = z.infer<typeof checkoutSessionInput>;

/** The reasons billing's refusals carry (better-auth's subscription codes, which the web app knows). */
export const BILLING_REASONS = {
  notFound: 'SUBSCRIPTION_NOT_FOUND',
  planNotFound: 'SUBSCRIPTION_PLAN_NOT_FOUND',
  alreadySubscribed: 'ALREADY_SUBSCRIBED_PLAN',
  emailVerificationRequired: 'EMAIL_VERIFICATION_REQUIRED',
} as const;
