// ReviewMetrics: the learner's reviews by day, retention, the year's heatmap and the coming month's
// forecast, in the learner's own days; and their whole history by month, and a chosen year by day (a learner
// who brings years of reviews from Anki sees them).

import { addDays, studyDayStart, weekStart } from '@engram/contracts/study-day';
import type { CallContext } from '@engram/kit/grpc/server';
import type * as Proto from '@engram/proto/cards/v1/metrics';
import type { Stores } from '../db.js';
import { learnerDay } from '../learner/learner-day.js';
import { FORECAST, REVIEWS_BETWEEN, REVIEWS_BY_DAY, REVIEWS_BY_MONTH } from '../review/metrics-sql.js';

const HEATMAP_DAYS = 365;
const FORECAST_DAYS = 30;
const DEFAULT_DAYS = 30;
// Weekly: a day's retention over a handful of reviews is noise. Half a year shows a trend and fits a phone.
const RETENTION_WEEKS = 26;

/** One entry per day from `from` to `to` (inclusive), zero where the query had none. */
function everyDay<T extends { date: string }>(from: string, to: string, rows: T[], empty: (date: string) => T): T[] {
  const byDate = new Map(rows.map((row) => [row.date, row]));
  const days: T[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(byDate.get(day) ?? empty(day));
  return days;
}

interface DayRow {
  date: string;
  mature: number;
  mature_recalled: number;
}

/** True retention in each of the last RETENTION_WEEKS weeks up to today's, zero counts for a week without any. */
function retentionByWeek(rows: DayRow[], today: string): Proto.WeekRetention[] {
  const first = addDays(weekStart(today), -7 * (RETENTION_WEEKS - 1));
  const weeks = Array.from({ length: RETENTION_WEEKS }, (_, index) => ({
    start: addDays(first, 7 * index),
    mature: 0,
    recalled: 0,
  }));
  const byStart = new Map(weeks.map((week) => [week.start, week]));
  for (const row of rows) {
    const week = byStart.get(weekStart(row.date));
    if (!week) continue;
    week.mature += row.mature;
    week.recalled += row.mature_recalled;
  }
  return weeks;
}

export function reviewMetrics(stores: Stores) {
  return async (request: Proto.ReviewMetricsRequest, ctx: CallContext): Promise<Proto.ReviewMetricsResponse> => {
    const ownerId = ctx.caller.userId;
    const { settings, today } = await learnerDay(stores, ownerId);
    const { timezone, dayStartHour } = settings;
    const span = request.days > 0 ? Math.min(request.days, HEATMAP_DAYS) : DEFAULT_DAYS;
    const heatmapFrom = addDays(today, -(HEATMAP_DAYS - 1));
    const year = request.year > 0 ? String(request.year).padStart(4, '0') : undefined;
    const [reviews, forecast, months, yearDays] = await Promise.all([
      stores.pool.query(REVIEWS_BY_DAY, [ownerId, heatmapFrom]),
      stores.pool.query<{ date: string; count: number }>(FORECAST, [
        ownerId,
        timezone,
        dayStartHour,
        today,
        studyDayStart(addDays(today, FORECAST_DAYS), timezone, dayStartHour),
      ]),
      stores.pool.query<Proto.MonthCount>(REVIEWS_BY_MONTH, [ownerId]),
      year
        ? stores.pool.query<Proto.DayCount>(REVIEWS_BETWEEN, [ownerId, `${year}-01-01`, `${year}-12-31`])
        : { rows: [] },
    ]);
    const daysFrom = addDays(today, -(span - 1));
    const recent = reviews.rows.filter((row) => row.date >= daysFrom);
    const mature = recent.reduce((sum, row) => sum + row.mature, 0);
    const recalled = recent.reduce((sum, row) => sum + row.mature_recalled, 0);
    return {
      days: everyDay(
        daysFrom,
        today,
        recent.map(({ date, reviews: count, again, hard, good, easy }) => ({
          date,
          reviews: count,
          again,
          hard,
          good,
          easy,
        })),
        (date) => ({ date, reviews: 0, again: 0, hard: 0, good: 0, easy: 0 }),
      ),
      retention: mature > 0 ? recalled / mature : -1,
      heatmap: reviews.rows.map((row) => ({ date: row.date, count: row.reviews })),
      forecast: everyDay(today, addDays(today, FORECAST_DAYS - 1), forecast.rows, (date) => ({ date, count: 0 })),
      retentionWeeks: retentionByWeek(reviews.rows, today),
      desiredRetention: settings.desiredRetention,
      months: months.rows,
      yearDays: yearDays.rows,
    };
  };
}
