// Prices and dates as the learner reads them: in their language, in the plan's currency (amounts arrive
// in the currency's smallest unit), and the saving an annual plan brings over twelve monthly payments.
import type { Currency, Interval } from '@engram/contracts/billing';
import { getLocale } from '../../lib/i18n';

export function formatPrice(unitAmount: number, currency: string, locale: string = getLocale()): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency: currency.toUpperCase() }).format(
    unitAmount / 100,
  );
}

export function formatDate(iso: string, locale: string = getLocale()): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long' }).format(new Date(iso));
}

export interface Price {
  plan: string;
  interval: string;
  currency: string;
  unitAmount: number;
}

export const priceOf = (prices: readonly Price[], plan: string, interval: Interval, currency: Currency) =>
  prices.find((price) => price.plan === plan && price.interval === interval && price.currency === currency);

/** The whole percentage an annual price saves against twelve monthly ones (0 when it saves nothing). */
export function annualSaving(monthly: number, annual: number): number {
  if (monthly <= 0) return 0;
  return Math.max(0, Math.round((1 - annual / (monthly * 12)) * 100));
}
