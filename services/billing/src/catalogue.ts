// The plans' prices as Stripe has them: read once per BILLING_PRICE_CACHE_SECONDS, so a price changed in
// Stripe (a new amount on the same price id) reaches the plans page without a deploy. A price that is
// missing, inactive, or not the interval and currency its variable names is left out and logged, never
// offered. While Stripe cannot be reached, the last prices read are served.
import { CURRENCIES, INTERVALS, PLANS } from '@engram/contracts/billing';
import { Unavailable } from '@engram/kit/errors';
import type { Logger } from '@engram/kit/logger';
import type { PlanPrice } from '@engram/proto/billing/v1/billing';
import type Stripe from 'stripe';
import type { PriceIds } from './config.js';

export interface Catalogue {
  prices(): Promise<PlanPrice[]>;
}

async function readPrices(stripe: Stripe, ids: PriceIds, logger: Logger): Promise<PlanPrice[]> {
  const wanted = PLANS.flatMap((plan) =>
    INTERVALS.flatMap((interval) => CURRENCIES.map((currency) => ({ plan, interval, currency }))),
  );
  const read = await Promise.all(
    wanted.map(async (want) => {
      const id = ids.of(want.plan, want.interval, want.currency);
      const price = await stripe.prices.retrieve(id);
      const fits = price.active && price.currency === want.currency && price.recurring?.interval === want.interval;
      if (!fits || price.unit_amount === null) {
        logger.warn(
          { price: id, ...want },
          'a configured Stripe price is inactive or does not match its plan; not offered',
        );
        return undefined;
      }
      return { ...want, unitAmount: price.unit_amount };
    }),
  );
  return read.filter((price) => price !== undefined);
}

export function createCatalogue(stripe: Stripe, ids: PriceIds, cacheSeconds: number, logger: Logger): Catalogue {
  let cached: { readAt: number; prices: PlanPrice[] } | undefined;
  let reading: Promise<PlanPrice[]> | undefined;
  return {
    async prices() {
      if (cached && Date.now() - cached.readAt < cacheSeconds * 1000) return cached.prices;
      reading ??= readPrices(stripe, ids, logger)
        .then((prices) => {
          cached = { readAt: Date.now(), prices };
          return prices;
        })
        .finally(() => {
          reading = undefined;
        });
      try {
        return await reading;
      } catch (error) {
        logger.warn({ err: error }, 'could not read the prices from Stripe');
        if (cached) return cached.prices;
        throw new Unavailable('The plans cannot be read right now. Please try again in a moment.');
      }
    },
  };
}
