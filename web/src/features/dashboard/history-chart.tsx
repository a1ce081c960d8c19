// The learner's whole history, a bar a month from their first review to today (imported years included), with
// a summary and a table for screen readers. The heatmap above shows any one of its years by day.
import { useMemo } from 'react';
import { getLocale, m } from '../../lib/i18n';
import { Panel } from './panels';
import type { ReviewMetrics } from './queries';

/** Every month from `first` to `last` (YYYY-MM), in order. */
export function monthRange(first: string, last: string): string[] {
  const months: string[] = [];
  let [year, month] = first.split('-').map(Number) as [number, number];
  for (let current = first; current <= last; ) {
    months.push(current);
    month += 1;
    if (month > 12) [year, month] = [year + 1, 1];
    current = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}`;
  }
  return months;
}

const monthName = (month: string, format: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat(getLocale(), { ...format, timeZone: 'UTC' }).format(new Date(`${month}-01T00:00:00Z`));

const BAR = 8;
const GAP = 2;
const HEIGHT = 120;

export function HistoryChart({ metrics, today }: { metrics: ReviewMetrics; today: string }) {
  const months = useMemo(() => {
    const first = metrics.months[0]?.month;
    if (!first) return [];
    const counts = new Map(metrics.months.map((row) => [row.month, row.reviews]));
    return monthRange(first, today.slice(0, 7)).map((month) => ({ month, reviews: counts.get(month) ?? 0 }));
  }, [metrics, today]);
  const first = months[0];
  if (!first) return null;
  const total = months.reduce((sum, row) => sum + row.reviews, 0);
  const max = Math.max(1, ...months.map((row) => row.reviews));
  const summary = m.dashboard_history_summary({
    count: total,
    since: monthName(first.month, { month: 'long', year: 'numeric' }),
  });
  const width = months.length * (BAR + GAP);
  return (
    <Panel title={m.dashboard_history()} className="lg:col-span-3">
      <p className="mt-1 text-sm text-slate-500" data-testid="history-summary">
        {summary}
      </p>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard */}
      <div tabIndex={0} className="mt-4 overflow-x-auto">
        <svg width={width} height={HEIGHT + 16} role="img" aria-label={summary}>
          {months.map((row, index) => {
            const height = Math.round((row.reviews / max) * HEIGHT);
            return (
              <g key={row.month}>
                <rect
                  x={index * (BAR + GAP)}
                  y={HEIGHT - height}
                  width={BAR}
                  height={height}
                  rx={1}
                  className="fill-brand-600"
                >
                  <title>
                    {m.dashboard_history_month({
                      month: monthName(row.month, { month: 'long', year: 'numeric' }),
                      count: row.reviews,
                    })}
                  </title>
                </rect>
                {row.month.endsWith('-01') || index === 0 ? (
                  <text x={index * (BAR + GAP)} y={HEIGHT + 12} className="fill-slate-500 text-[10px]">
                    {row.month.slice(0, 4)}
                  </text>
                ) : null}
              </g>
            );
          })}
        </svg>
      </div>
      <div className="sr-only">
        <table aria-label={m.dashboard_history()}>
          <thead>
            <tr>
              <th scope="col">{m.dashboard_month()}</th>
              <th scope="col">{m.dashboard_reviews()}</th>
            </tr>
          </thead>
          <tbody>
            {months
              .filter((row) => row.reviews > 0)
              .map((row) => (
                <tr key={row.month}>
                  <th scope="row">{row.month}</th>
                  <td>{row.reviews}</td>
                </tr>
              ))}
          </tbody>
        </table>
      </div>
    </Panel>
  );
}
