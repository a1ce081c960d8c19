// The period generated cards are counted in: billing's period, or, for an annual subscription, the month
// of it that contains `now` (the limits are monthly, e.g. pro 10,000 a month:
// docs/product.md#card-generation).

function addMonths(date: Date, months: number): Date {
  const next = new Date(date);
  const day = next.getUTCDate();
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(day, lastDay));
  return next;
}

export function countingPeriod(periodStart: Date, periodEnd: Date, now = new Date()): { start: Date; end: Date } {
  let start = periodStart;
  let end = addMonths(periodStart, 1);
  for (let month = 1; end < periodEnd && end <= now; month++) {
    start = end;
    end = addMonths(periodStart, month + 1);
  }
  return { start, end: end < periodEnd ? end : periodEnd };
}
