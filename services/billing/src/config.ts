// The billing service's configuration: the only place it reads process.env.
//
// With STRIPE_SECRET_KEY, billing talks to Stripe and needs STRIPE_WEBHOOK_SECRET and a price id for every
// plan, interval and currency (STRIPE_PRICE_<PLAN>_<INTERVAL>_<CURRENCY>, e.g. STRIPE_PRICE_PRO_ANNUAL_BRL).
// Without it, outside production, billing runs against the local Stripe stand-in (@engram/stand-ins/stripe): the same
// purchase flow on a laptop, no money involved. Production refuses to start without real keys, and with a
// test-mode key (sk_test_…, rk_test_…), which would take no real payment.
import {
  CURRENCIES,
  type Currency,
  FREE_PLAN,
  INTERVALS,
  type Interval,
  PLANS,
  type Plan,
  type PlanOrFree,
} from '@engram/contracts/billing';
import { ConfigError, loadConfig, parseConfig, publicBaseUrlOf, vars } from '@engram/kit/config';
import { eventVars } from '@engram/kit/events/setup';
import { serviceVars } from '@engram/kit/service';
import { z } from 'zod';

const INTERVAL_NAMES: Record<Interval, string> = { month: 'MONTHLY', year: 'ANNUAL' };

/** STRIPE_PRICE_PLUS_MONTHLY_USD and its eleven siblings. */
export const priceVariable = (plan: Plan, interval: Interval, currency: Currency) =>
  `STRIPE_PRICE_${plan.toUpperCase()}_${INTERVAL_NAMES[interval]}_${currency.toUpperCase()}`;

const PRICE_VARIABLES = PLANS.flatMap((plan) =>
  INTERVALS.flatMap((interval) => CURRENCIES.map((currency) => ({ plan, interval, currency }))),
);

/** The price ids billing uses against the Stripe stand-in, which it hands the stand-in for its catalogue. */
const standInPriceId = (plan: Plan, interval: Interval, currency: Currency) =>
  `price_${plan}_${interval}ly_${currency}`;

const priceId = z
  .string()
  .regex(/^price_\w+$/, 'must be a Stripe price id (price_…)')
  .optional();

export const configShape = {
  ...serviceVars({ grpc: 50054, metrics: 9464 }),
  HTTP_PORT: vars.port(3004),
  DATABASE_URL: vars.url(['postgresql', 'postgres']),
  ...eventVars,
  /** The app's own origin: checkout returns there; required in production (publicBaseUrlOf). */
  PUBLIC_BASE_URL: vars.url(['http', 'https']).optional(),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_\w+$/, 'must be a Stripe secret key')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\w+$/, 'must be a webhook signing secret (whsec_…)')
    .optional(),
  /** Let customers enter promotion codes in Checkout. */
  BILLING_ALLOW_PROMOTION_CODES: vars.bool.default(false),
  /** Stripe Tax computes and collects tax in Checkout. */
  BILLING_AUTOMATIC_TAX: vars.bool.default(false),
  /** How long the prices read from Stripe are believed before they are read again. */
  BILLING_PRICE_CACHE_SECONDS: vars.positiveInt(300),
  /** Cards AI generation may produce per billing period, per plan (docs/product.md#card-generation). */
  GENERATED_CARDS_FREE: vars.positiveInt(200),
  GENERATED_CARDS_PLUS: vars.positiveInt(2_000),
  GENERATED_CARDS_PRO: vars.positiveInt(10_000),
  /** Megabytes of card images and sounds a learner may keep, per plan (docs/product.md#media-in-cards). */
  MEDIA_QUOTA_MB_FREE: vars.positiveInt(100),
  MEDIA_QUOTA_MB_PLUS: vars.positiveInt(2_048),
  MEDIA_QUOTA_MB_PRO: vars.positiveInt(20_480),
  /** Where the stand-in keeps its state between restarts (npm start); memory only when unset. */
  STRIPE_STANDIN_STATE_FILE: z.string().optional(),
  ...Object.fromEntries(PRICE_VARIABLES.map((p) => [priceVariable(p.plan, p.interval, p.currency), priceId])),
};

export interface PriceIds {
  /** The Stripe price id of each plan, interval and currency. */
  of(plan: Plan, interval: Interval, currency: Currency): string;
  /** Which plan, interval and currency a price id stands for, if it is one of ours. */
  lookUp(id: string): { plan: Plan; interval: Interval; currency: Currency } | undefined;
}

function priceIds(of: (plan: Plan, interval: Interval, currency: Currency) => string): PriceIds {
  const byId = new Map(PRICE_VARIABLES.map((p) => [of(p.plan, p.interval, p.currency), p]));
  return { of, lookUp: (id) => byId.get(id) };
}

type Env = Record<string, string | undefined>;

/** The rules across variables, on the parsed variables; throws a ConfigError naming each problem. */
function checked(env: Env) {
  return (config: ReturnType<typeof parseConfig<typeof configShape>>) => {
    const values = config as unknown as Record<string, string | undefined>;
    const publicBaseUrl = publicBaseUrlOf('billing', config, env);
    const generatedCards: Record<PlanOrFree, number> = {
      [FREE_PLAN]: config.GENERATED_CARDS_FREE,
      plus: config.GENERATED_CARDS_PLUS,
      pro: config.GENERATED_CARDS_PRO,
    };
    const MB = 1024 * 1024;
    const mediaQuotaBytes: Record<PlanOrFree, number> = {
      [FREE_PLAN]: config.MEDIA_QUOTA_MB_FREE * MB,
      plus: config.MEDIA_QUOTA_MB_PLUS * MB,
      pro: config.MEDIA_QUOTA_MB_PRO * MB,
    };
    if (!config.STRIPE_SECRET_KEY) {
      if (config.NODE_ENV === 'production') {
        throw new ConfigError('billing', [
          'STRIPE_SECRET_KEY: is required in production (without it billing would run the local stand-in)',
        ]);
      }
      return {
        ...config,
        publicBaseUrl,
        generatedCards,
        mediaQuotaBytes,
        standIn: true as const,
        prices: priceIds(standInPriceId),
      };
    }
    const testKeyInProduction = config.NODE_ENV === 'production' && /^(sk|rk)_test_/.test(config.STRIPE_SECRET_KEY);
    const problems = [
      ...(testKeyInProduction
        ? ['STRIPE_SECRET_KEY: is a test-mode key (sk_test_…, rk_test_…); production needs a live key']
        : []),
      ...(config.STRIPE_WEBHOOK_SECRET ? [] : ['STRIPE_WEBHOOK_SECRET: is required with STRIPE_SECRET_KEY']),
      ...PRICE_VARIABLES.map((p) => priceVariable(p.plan, p.interval, p.currency))
        .filter((name) => !values[name])
        .map((name) => `${name}: is required with STRIPE_SECRET_KEY`),
    ];
    if (problems.length > 0) throw new ConfigError('billing', problems);
    return {
      ...config,
      publicBaseUrl,
      generatedCards,
      mediaQuotaBytes,
      standIn: false as const,
      prices: priceIds((plan, interval, currency) => values[priceVariable(plan, interval, currency)] as string),
    };
  };
}

export type Config = ReturnType<ReturnType<typeof checked>>;

/** For the entry point: a bad environment prints its problems and exits (78). */
export function readConfig(env: Env = process.env): Config {
  return loadConfig('billing', configShape, env, checked(env));
}

/** As readConfig, but throwing the ConfigError (for tests). */
export function parseBillingConfig(env: Env): Config {
  return checked(env)(parseConfig('billing', configShape, env));
}
