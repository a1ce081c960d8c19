// Calendar days for the dashboard's charts, as the `YYYY-MM-DD` strings the metrics use (the learner's
// days). Days are counted in UTC so a daylight-saving change never makes one 23 or 25 hours long.

const DAY_MS = 86_400_000;

const toTime = (date: string) => Date.parse(`${date}T00:00:00Z`);
const toDate = (time: number) => new Date(time).toISOString().slice(0, 10);

export const addDays = (date: string, days: number) => toDate(toTime(date) + days * DAY_MS);

/** Today's date in a timezone (the learner's setting); falls back to UTC for a zone the browser lacks. */
export function todayIn(timezone: string, now: Date = new Date()): string {
  try {
    return new Intl.DateTimeFormat('en-CA', {
      timeZone: timezone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(now);
  } catch {
    return toDate(now.getTime());
  }
}

/** A day as a short date in a language ("Nov 22", "22 de nov."), whatever the browser's timezone. */
export function formatShortDate(date: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(
    new Date(toTime(date)),
  );
}

/** `count` consecutive days starting at `first`. */
export function dayRange(first: string, count: number): string[] {
  const start = toTime(first);
  return Array.from({ length: Math.max(0, count) }, (_, i) => toDate(start + i * DAY_MS));
}

/** The values of `rows` on each day of `days`, with `empty` for a day that has no row. */
export function onDays<R extends { date: string }>(
  days: string[],
  rows: readonly R[],
  empty: (date: string) => R,
): R[] {
  const byDate = new Map(rows.map((row) => [row.date, row]));
  return days.map((date) => byDate.get(date) ?? empty(date));
}

export interface HeatCell {
  date: string;
  count: number;
  /** 0 (none) to 4 (among the busiest days). */
  level: number;
}

/**
 * The year heatmap: whole weeks (Sunday first) ending with the week of `today`, each a column of seven
 * days; days after today are left out. Levels split the busiest day's count in quarters.
 */
export function heatmapWeeks(
  rows: readonly { date: string; count: number }[],
  today: string,
  weeks = 53,
): HeatCell[][] {
  const weekday = new Date(toTime(today)).getUTCDay();
  const first = toDate(toTime(today) - (weekday + (weeks - 1) * 7) * DAY_MS);
  const counts = new Map(rows.map((row) => [row.date, row.count]));
  const max = Math.max(0, ...rows.map((row) => row.count));
  const level = (count: number) => (count === 0 || max === 0 ? 0 : Math.min(4, Math.ceil((count / max) * 4)));
  const columns: HeatCell[][] = [];
  for (const [index, date] of dayRange(first, weeks * 7).entries()) {
    if (date > today) break;
    const count = counts.get(date) ?? 0;
    if (index % 7 === 0) columns.push([]);
    columns[columns.length - 1]?.push({ date, count, level: level(count) });
  }
  return columns;
}
