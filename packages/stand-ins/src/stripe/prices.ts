// The stand-in's products and prices: Engram's plans in every interval and currency, under the ids billing
// hands it (the ids billing uses without Stripe keys; a real installation names its own Stripe price ids in
// the environment).
import { CURRENCIES, type Currency, INTERVALS, type Interval, PLANS, type Plan } from '@engram/contracts/billing';

export interface StandInPrice {
  id: string;
  object: 'price';
  active: boolean;
  currency: Currency;
  unit_amount: number;
  product: string;
  recurring: { interval: Interval; interval_count: 1 };
  type: 'recurring';
  livemode: false;
  nickname: string;
  metadata: Record<string, string>;
}

/** Monthly amounts in the currency's smallest unit; a year costs ten months. */
const MONTHLY: Record<Plan, Record<Currency, number>> = {
  plus: { usd: 800, eur: 750, brl: 3990 },
  pro: { usd: 1500, eur: 1400, brl: 7490 },
};

export const PRODUCT_NAMES: Record<Plan, string> = { plus: 'Engram Plus', pro: 'Engram Pro' };

/** The price id of each plan, interval and currency. */
export type PriceIdOf = (plan: Plan, interval: Interval, currency: Currency) => string;

/** The catalogue: every plan in every interval and currency, under `priceId`'s ids. */
export const standInPrices = (priceId: PriceIdOf): StandInPrice[] =>
  PLANS.flatMap((plan) =>
    INTERVALS.flatMap((interval) =>
      CURRENCIES.map((currency) => ({
        id: priceId(plan, interval, currency),
        object: 'price' as const,
        active: true,
        currency,
        unit_amount: MONTHLY[plan][currency] * (interval === 'year' ? 10 : 1),
        product: `prod_${plan}`,
        recurring: { interval, interval_count: 1 as const },
        type: 'recurring' as const,
        livemode: false as const,
        nickname: `${PRODUCT_NAMES[plan]} (${interval}ly, ${currency.toUpperCase()})`,
        metadata: { plan },
      })),
    ),
  );
