// The dashboard's charts, loaded after its first paint: reviews per day by rating (stacked bars), the
// 30-day due forecast, true retention by week and the year heatmap. Each has a table or summary for
// screen readers.
import { RATINGS, type RatingName } from '@engram/contracts/learning';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type uPlot from 'uplot';
import { InlineError } from '../../components/query-states';
import { barOptions, UPlotChart } from '../../components/uplot-chart';
import { getLocale, m } from '../../lib/i18n';
import { ChartsLoading } from './charts-loading';
import { addDays, dayRange, formatShortDate, onDays, todayIn } from './days';
import { Heatmap } from './heatmap';
import { HistoryChart } from './history-chart';
import { Panel } from './panels';
import { type ReviewMetrics, reviewMetricsOptions, timezoneOptions } from './queries';
import { RetentionChart } from './retention-chart';

const CHART_DAYS = 30;
export const RATING_COLORS: Record<RatingName, string> = {
  again: '#f43f5e',
  hard: '#f59e0b',
  good: '#10b981',
  easy: '#0ea5e9',
};
const RATING_LABELS: Record<RatingName, () => string> = {
  again: m.rating_again,
  hard: m.rating_hard,
  good: m.rating_good,
  easy: m.rating_easy,
};

const seconds = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000;
const dateOfSeconds = (value: number) => new Date(value * 1000).toISOString().slice(0, 10);
const shortDate = (date: string) => formatShortDate(date, getLocale());

function Legend() {
  return (
    <ul className="mt-3 flex flex-wrap gap-4 text-xs text-slate-600" aria-hidden="true">
      {RATINGS.map((rating) => (
        <li key={rating} className="flex items-center gap-1.5">
          <span className="size-2.5 rounded-sm" style={{ background: RATING_COLORS[rating] }} />
          {RATING_LABELS[rating]()}
        </li>
      ))}
    </ul>
  );
}

function ReviewsChart({ metrics, today }: { metrics: ReviewMetrics; today: string }) {
  const days = useMemo(
    () =>
      onDays(dayRange(addDays(today, 1 - CHART_DAYS), CHART_DAYS), metrics.days, (date) => ({
        date,
        reviews: 0,
        again: 0,
        hard: 0,
        good: 0,
        easy: 0,
      })),
    [metrics, today],
  );
  // Stacked by drawing running totals, tallest first, so each rating's band shows above the one before.
  const [options, data] = useMemo(() => {
    const order = [...RATINGS].reverse();
    const cumulative = order.map((rating) =>
      days.map((day) => RATINGS.slice(0, RATINGS.indexOf(rating) + 1).reduce((sum, r) => sum + day[r], 0)),
    );
    const chartData: uPlot.AlignedData = [days.map((day) => seconds(day.date)), ...cumulative];
    const chartOptions = barOptions(
      200,
      order.map((rating) => ({ label: RATING_LABELS[rating](), color: RATING_COLORS[rating] })),
      (value) => shortDate(dateOfSeconds(value)),
    );
    return [chartOptions, chartData] as const;
  }, [days]);
  const total = days.reduce((sum, day) => sum + day.reviews, 0);
  const [hovered, setHovered] = useState<number | null>(null);
  const day = hovered === null ? undefined : days[hovered];

  return (
    <Panel title={m.dashboard_reviews_chart()} className="lg:col-span-2">
      <p className="mt-1 text-sm text-slate-500" data-testid="reviews-summary">
        {day ? (
          <>
            <span className="font-medium text-slate-700">{shortDate(day.date)}</span>
            {RATINGS.map((rating) => ` · ${RATING_LABELS[rating]()} ${day[rating]}`).join('')}
          </>
        ) : (
          m.dashboard_reviews_summary({ count: total, days: CHART_DAYS })
        )}
        {!day && metrics.retention !== null && (
          <>
            {' · '}
            <span data-testid="retention">
              {m.dashboard_retention({
                percent: new Intl.NumberFormat(getLocale(), { style: 'percent' }).format(metrics.retention),
              })}
            </span>
          </>
        )}
      </p>
      <div className="mt-4">
        <UPlotChart options={options} data={data} onHover={setHovered} />
      </div>
      <Legend />
      {/* sr-only on a wrapper: a table ignores the 1 px width it gives and would widen a phone's page. */}
      <div className="sr-only">
        <table aria-label={m.dashboard_reviews_table()}>
          <thead>
            <tr>
              <th scope="col">{m.dashboard_date()}</th>
              <th scope="col">{m.dashboard_reviews()}</th>
              {RATINGS.map((rating) => (
                <th key={rating} scope="col">
                  {RATING_LABELS[rating]()}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {days
              .filter((day) => day.reviews > 0)
              .map((day) => (
                <tr key={day.date}>
                  <th scope="row">{day.date}</th>
                  <td>{day.reviews}</td>
                  {RATINGS.map((rating) => (
                    <td key={rating}>{day[rating]}</td>
                  ))}
                </tr>
              ))}
          </tbody>
        </table>
      </div>
    </Panel>
  );
}

function ForecastChart({ metrics, today }: { metrics: ReviewMetrics; today: string }) {
  const days = useMemo(
    () => onDays(dayRange(today, CHART_DAYS), metrics.forecast, (date) => ({ date, count: 0 })),
    [metrics, today],
  );
  const [options, data] = useMemo(
    () =>
      [
        barOptions(160, [{ label: m.dashboard_forecast(), color: '#6366f1' }], (value) =>
          shortDate(dateOfSeconds(value)),
        ),
        [days.map((day) => seconds(day.date)), days.map((day) => day.count)] as uPlot.AlignedData,
      ] as const,
    [days],
  );
  const week = days.slice(0, 7).reduce((sum, day) => sum + day.count, 0);
  const [hovered, setHovered] = useState<number | null>(null);
  const day = hovered === null ? undefined : days[hovered];
  return (
    <Panel title={m.dashboard_forecast()}>
      <p className="mt-1 text-sm text-slate-500">
        {day ? (
          <>
            <span className="font-medium text-slate-700">{shortDate(day.date)}</span> · {day.count}
          </>
        ) : (
          m.dashboard_forecast_summary({ count: week })
        )}
      </p>
      <div className="mt-4">
        <UPlotChart options={options} data={data} onHover={setHovered} />
      </div>
      <div className="sr-only">
        <table aria-label={m.dashboard_forecast()}>
          <tbody>
            {days.map((day) => (
              <tr key={day.date}>
                <th scope="row">{day.date}</th>
                <td>{day.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Panel>
  );
}

export function DashboardCharts() {
  const metrics = useQuery(reviewMetricsOptions);
  const timezone = useQuery(timezoneOptions);
  // Offline with none loaded yet: the charts wait for the network (the progress and streak above are the device's).
  if (metrics.isPending && metrics.fetchStatus === 'paused')
    return (
      <p className="rounded-2xl bg-white p-6 text-sm text-slate-500 shadow-sm ring-1 ring-slate-200">
        {m.offline_charts_when_online()}
      </p>
    );
  if (metrics.isPending) return <ChartsLoading />;
  if (metrics.isError)
    return <InlineError message={m.dashboard_load_failed()} onRetry={() => void metrics.refetch()} />;
  // The forecast starts on the learner's today (their timezone and day start, as the service counts it).
  const today = metrics.data.forecast[0]?.date ?? todayIn(timezone.data?.timezone ?? 'UTC');
  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <ReviewsChart metrics={metrics.data} today={today} />
      <ForecastChart metrics={metrics.data} today={today} />
      <RetentionChart metrics={metrics.data} />
      <Heatmap metrics={metrics.data} today={today} />
      <HistoryChart metrics={metrics.data} today={today} />
    </div>
  );
}
