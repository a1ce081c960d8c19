// The currency a visitor most likely pays in, offered until they choose one (the landing page's plans and the
// plans screen): reals for a reader of Brazilian Portuguese, else the currency of the country their browser is set
// for (reals for Brazil, euros for a country of the euro), else dollars, the catalogue's default.
import type { Locale } from '../../lib/i18n';

/** The countries that pay in euros (Bulgaria joined in 2026). */
const EURO_REGIONS = new Set([
  'AT',
  'BE',
  'BG',
  'CY',
  'DE',
  'EE',
  'ES',
  'FI',
  'FR',
  'GR',
  'HR',
  'IE',
  'IT',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'PT',
  'SI',
  'SK',
]);

const regionOf = (language: string): string | undefined => {
  try {
    return new Intl.Locale(language).region;
  } catch {
    return undefined;
  }
};

const currencyOfRegion = (region: string | undefined): string | undefined =>
  region === 'BR' ? 'brl' : region && EURO_REGIONS.has(region) ? 'eur' : undefined;

export function currencyFor(
  locale: Locale,
  available: readonly string[],
  browserLanguages: readonly string[] = globalThis.navigator?.languages ?? [],
): string {
  const region = browserLanguages.map(regionOf).find((found) => found !== undefined);
  const likely = locale === 'pt-BR' ? 'brl' : currencyOfRegion(region);
  if (likely && available.includes(likely)) return likely;
  return available.find((currency) => currency === 'usd') ?? available[0] ?? 'usd';
}
