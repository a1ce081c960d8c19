// billing's Stripe configuration: the stand-in without keys (never in production), and in production only
// a live key, since a test-mode key would take no real payment.
import { ConfigError } from '@engram/kit/config';
import { describe, expect, it } from 'vitest';
import { priceVariable, parseBillingConfig as readConfig } from '../../src/config.js';

const BASE = {
  INTERNAL_TOKEN_PUBLIC_KEYS: '{"keys":[]}',
  DATABASE_URL: 'postgresql://localhost/engram?schema=billing',
  NATS_URL: 'nats://localhost:4222',
  PUBLIC_BASE_URL: 'https://engram.example.com',
};

/** Every price variable set, so that only the key can be the problem. */
const STRIPE = {
  STRIPE_WEBHOOK_SECRET: 'whsec_endpoint',
  ...Object.fromEntries(
    (['plus', 'pro'] as const).flatMap((plan) =>
      (['month', 'year'] as const).flatMap((interval) =>
        (['usd', 'eur', 'brl'] as const).map((currency) => [
          priceVariable(plan, interval, currency),
          `price_${plan}_${interval}_${currency}`,
        ]),
      ),
    ),
  ),
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    readConfig({ ...BASE, ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe("billing's Stripe keys", () => {
  it('refuses a test-mode secret or restricted key in production, naming the variable', () => {
    for (const key of ['sk_test_51Abc', 'rk_test_51Abc']) {
      expect(problemsOf({ NODE_ENV: 'production', STRIPE_SECRET_KEY: key, ...STRIPE })).toEqual([
        'STRIPE_SECRET_KEY: is a test-mode key (sk_test_…, rk_test_…); production needs a live key',
      ]);
    }
  });

  it('takes a live key in production, and a test key outside it', () => {
    expect(readConfig({ ...BASE, NODE_ENV: 'production', STRIPE_SECRET_KEY: 'sk_live_51Abc', ...STRIPE }).standIn).toBe(
      false,
    );
    expect(
      readConfig({ ...BASE, NODE_ENV: 'development', STRIPE_SECRET_KEY: 'sk_test_51Abc', ...STRIPE }).standIn,
    ).toBe(false);
  });

  it('runs the stand-in without a key outside production, and refuses production without one', () => {
    expect(readConfig({ ...BASE, NODE_ENV: 'development' }).standIn).toBe(true);
    expect(problemsOf({ NODE_ENV: 'production' })).toEqual([
      'STRIPE_SECRET_KEY: is required in production (without it billing would run the local stand-in)',
    ]);
  });
});
