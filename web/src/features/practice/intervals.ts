// A rating button's interval, as compact as Anki's: 1m, 10m, 3h, 1d, 4d, 3mo, 1.5y (in the current language).
import { getLocale, m } from '../../lib/i18n';

const MINUTE = 60;
const HOUR = 3_600;
const DAY = 86_400;
const MONTH = 30 * DAY;
const YEAR = 365 * DAY;

/** `seconds` (what the cards service says a rating gives) as a short label; never less than a minute. */
export function formatInterval(seconds: number): string {
  const count = (value: number, digits = 0) =>
    new Intl.NumberFormat(getLocale(), { maximumFractionDigits: digits }).format(value);
  if (seconds < HOUR) return m.interval_minutes({ count: count(Math.max(1, Math.round(seconds / MINUTE))) });
  if (seconds < DAY) return m.interval_hours({ count: count(Math.round(seconds / HOUR)) });
  if (seconds < MONTH) return m.interval_days({ count: count(Math.round(seconds / DAY)) });
  if (seconds < YEAR) return m.interval_months({ count: count(seconds / MONTH, 1) });
  return m.interval_years({ count: count(seconds / YEAR, 1) });
}
