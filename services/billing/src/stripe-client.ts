// Billing's Stripe client: the real API with STRIPE_SECRET_KEY, or the local stand-in (served by billing's
// own HTTP server) outside production without one. Either way the real `stripe` SDK makes every call and
// verifies every webhook. The stand-in comes from @engram/stand-ins, a development package loaded only then:
// billing's image does not hold it.
import { randomBytes } from 'node:crypto';
import type { Logger } from '@engram/kit/logger';
import type { StripeStandIn } from '@engram/stand-ins/stripe';
import Stripe from 'stripe';
import type { Config } from './config.js';
import { WEBHOOK_PATH } from './webhook-http.js';

export interface StripeAccess {
  stripe: Stripe;
  webhookSecret: string;
  /** Present when billing runs against the stand-in. */
  standIn?: StripeStandIn;
}

/** Network retries for idempotent requests (the SDK adds an Idempotency-Key to each POST it retries). */
const MAX_NETWORK_RETRIES = 2;
const TIMEOUT_MS = 10_000;

/** `httpPort` is the port billing's HTTP server listens on: the stand-in is served there. */
export async function createStripeAccess(config: Config, httpPort: number, logger: Logger): Promise<StripeAccess> {
  if (!config.standIn) {
    return {
      stripe: new Stripe(config.STRIPE_SECRET_KEY as string, {
        maxNetworkRetries: MAX_NETWORK_RETRIES,
        timeout: TIMEOUT_MS,
      }),
      webhookSecret: config.STRIPE_WEBHOOK_SECRET as string,
    };
  }
  const { createStripeStandIn, STAND_IN_SECRET_KEY } = await import('@engram/stand-ins/stripe');
  const webhookSecret = `whsec_${randomBytes(24).toString('hex')}`;
  const standIn = createStripeStandIn({
    priceId: config.prices.of,
    publicOrigin: config.publicBaseUrl,
    webhookUrl: `http://127.0.0.1:${httpPort}${WEBHOOK_PATH}`,
    webhookSecret,
    logger,
    ...(config.STRIPE_STANDIN_STATE_FILE && { stateFile: config.STRIPE_STANDIN_STATE_FILE }),
  });
  logger.warn('billing runs against the local Stripe stand-in (no STRIPE_SECRET_KEY): no payment is real');
  return {
    stripe: new Stripe(STAND_IN_SECRET_KEY, {
      host: '127.0.0.1',
      port: httpPort,
      protocol: 'http',
      maxNetworkRetries: MAX_NETWORK_RETRIES,
      timeout: TIMEOUT_MS,
    }),
    webhookSecret,
    standIn,
  };
}
