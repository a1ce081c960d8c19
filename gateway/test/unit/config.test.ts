// The gateway's tRPC limits as configured: defaults the web app's batches fit under, and a batch size the
// web app's own batches would exceed refused at start-up with the variable named.
import { TRPC_BATCH_MAX_CALLS } from '@engram/contracts/trpc';
import { ConfigError, parseConfig } from '@engram/kit/config';
import { describe, expect, it } from 'vitest';
import { configShape } from '../../src/config.ts';

const BASE = {
  INTERNAL_TOKEN_PRIVATE_KEY: 'a key',
  IDENTITY_HTTP_URL: 'http://identity:3001',
  BILLING_HTTP_URL: 'http://billing:3004',
  IDENTITY_ADDR: 'identity:50051',
  CARDS_ADDR: 'cards:50053',
  ORGANIZATIONS_ADDR: 'organizations:50052',
  BILLING_ADDR: 'billing:50054',
  AI_ADDR: 'ai:50055',
  REDIS_URL: 'redis://redis:6379',
};

const parse = (env: Record<string, string> = {}) => parseConfig('gateway', configShape, { ...BASE, ...env });

describe('the tRPC limits the gateway is configured with', () => {
  it('default to batches the web app fits in and tighter limits for Stripe, generation, uploads and syncs', () => {
    expect(parse()).toMatchObject({
      TRPC_MAX_BATCH_SIZE: TRPC_BATCH_MAX_CALLS,
      TRPC_RATE_LIMIT_PER_USER: 600,
      TRPC_RATE_LIMIT_STRIPE_PER_USER: 60,
      TRPC_RATE_LIMIT_GENERATE_PER_USER: 10,
      TRPC_RATE_LIMIT_UPLOAD_PER_USER: 10,
      TRPC_RATE_LIMIT_FORECAST_PER_USER: 30,
      TRPC_RATE_LIMIT_SYNC_PER_USER: 20,
    });
  });

  it('refuses a maximum batch size below the web app’s own batches, naming the variable', () => {
    const problems = (() => {
      try {
        parse({ TRPC_MAX_BATCH_SIZE: String(TRPC_BATCH_MAX_CALLS - 1) });
      } catch (error) {
        if (error instanceof ConfigError) return error.problems;
        throw error;
      }
      return [];
    })();
    expect(problems).toEqual([
      `TRPC_MAX_BATCH_SIZE: must be at least ${TRPC_BATCH_MAX_CALLS}, the most calls the web app puts in one batch`,
    ]);
    expect(parse({ TRPC_MAX_BATCH_SIZE: '250' }).TRPC_MAX_BATCH_SIZE).toBe(250);
  });
});
