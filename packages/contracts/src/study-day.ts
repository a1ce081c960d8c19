// The learner's day: it starts at their day-start hour (default 4 am) in their IANA timezone, so a
// review at 1 am still counts for the day before, and "today", due lists and streaks follow the learner
// across daylight-saving changes. Days are plain 'YYYY-MM-DD' strings; instants are Dates (UTC).

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

const formatters = new Map<string, Intl.DateTimeFormat>();

function wallClockFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall-clock time in `timeZone` at `instant`, as milliseconds of a UTC date with the same fields. */
function wallClockMs(instant: Date, timeZone: string): number {
  const fields: Record<string, number> = {};
  for (const part of wallClockFormatter(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') fields[part.type] = Number(part.value);
  }
  const { year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0 } = fields;
  return Date.UTC(year, month - 1, day, hour, minute, second) + instant.getUTCMilliseconds();
}

function dayString(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The learner's day that `instant` belongs to. */
export function studyDayOf(instant: Date, timeZone: string, dayStartHour: number): string {
  return dayString(wallClockMs(instant, timeZone) - dayStartHour * HOUR_MS);
}

/** `day` moved by `days` (negative for earlier days). */
export function addDays(day: string, days: number): string {
  return dayString(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS);
}

/** The first day of the week that `day` belongs to: weeks start on Sunday, as in the dashboard's heatmap. */
export function weekStart(day: string): string {
  return addDays(day, -new Date(`${day}T00:00:00Z`).getUTCDay());
}

/**
 * The instant the learner's `day` begins: the day-start hour on that date in their timezone. When that
 * wall-clock time does not exist (a spring-forward gap), the day begins when the clocks jump past it.
 */
export function studyDayStart(day: string, timeZone: string, dayStartHour: number): Date {
  const wanted = Date.parse(`${day}T00:00:00Z`) + dayStartHour * HOUR_MS;
  // Two passes: the offset at a first guess, then the offset at the instant that guess gives.
  let instant = wanted - (wallClockMs(new Date(wanted), timeZone) - wanted);
  instant = wanted - (wallClockMs(new Date(instant), timeZone) - instant);
  const reached = wallClockMs(new Date(instant), timeZone);
  // Inside a gap the wall clock never shows `wanted`; the first instant after it is the gap's end.
  if (reached < wanted) instant += wanted - reached;
  return new Date(instant);
}

/** The learner's current day and the instants it starts and ends (the next day's start). */
export function studyDayAround(now: Date, timeZone: string, dayStartHour: number) {
  const today = studyDayOf(now, timeZone, dayStartHour);
  return {
    today,
    start: studyDayStart(today, timeZone, dayStartHour),
    end: studyDayStart(addDays(today, 1), timeZone, dayStartHour),
  };
}
