// The year heatmap: a column per week, a square per day, darker for busier days, with a text summary. It shows
// the last 12 months, or any calendar year of the learner's history (one imported from Anki goes back years).
import { useQuery } from '@tanstack/react-query';
import { useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { getLocale, m } from '../../lib/i18n';
import { trpc } from '../../lib/trpc';
import { formatShortDate, heatmapWeeks } from './days';
import { Panel } from './panels';
import type { ReviewMetrics } from './queries';

/** From no reviews to the busiest days; the shades are styles.css's --heat-* (they follow the theme). */
const HEAT_COLORS = [0, 1, 2, 3, 4].map((level) => `var(--heat-${level})`);
const CELL = 11;
const GAP = 3;

export function Heatmap({ metrics, today }: { metrics: ReviewMetrics; today: string }) {
  const selectId = useId();
  const [year, setYear] = useState<number | null>(null);
  const years = useMemo(
    () => [...new Set(metrics.months.map((row) => Number(row.month.slice(0, 4))))].sort((a, b) => b - a),
    [metrics],
  );
  const chosen = useQuery({ ...trpc.cards.reviewMetrics.queryOptions({ year: year ?? 0 }), enabled: year !== null });
  const rows = year === null ? metrics.heatmap : (chosen.data?.yearDays ?? []);
  // A year ends on its last day, or today for this one.
  const end = year === null || today.startsWith(String(year)) ? today : `${year}-12-31`;
  const weeks = useMemo(() => heatmapWeeks(rows, end), [rows, end]);
  const total = rows.reduce((sum, day) => sum + day.count, 0);
  const active = rows.filter((day) => day.count > 0).length;
  const summary =
    year === null
      ? m.dashboard_heatmap_summary({ count: total, days: active })
      : m.dashboard_heatmap_year_summary({ year: String(year), count: total, days: active });
  const months = weeks.flatMap((week, index) => {
    const first = week[0];
    if (!first) return [];
    const previous = weeks[index - 1]?.[0];
    return !previous || previous.date.slice(5, 7) !== first.date.slice(5, 7)
      ? [
          {
            x: index * (CELL + GAP),
            label: new Intl.DateTimeFormat(getLocale(), { month: 'short', timeZone: 'UTC' }).format(
              new Date(`${first.date}T00:00:00Z`),
            ),
          },
        ]
      : [];
  });
  const width = weeks.length * (CELL + GAP);
  // Narrower than the year, the map starts scrolled to its end: the latest weeks show, older ones to the left.
  const scroller = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && width) element.scrollLeft = element.scrollWidth;
  }, [width]);
  return (
    <Panel title={m.dashboard_heatmap()} className="lg:col-span-3">
      <div className="mt-1 flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-slate-500" data-testid="heatmap-summary">
          {summary}
        </p>
        {years.length > 0 && (
          <label htmlFor={selectId} className="flex items-center gap-2 text-sm text-slate-600">
            {m.dashboard_heatmap_show()}
            <select
              id={selectId}
              value={year ?? ''}
              onChange={(event) => setYear(event.target.value === '' ? null : Number(event.target.value))}
              className="rounded-md border-0 py-1 pr-8 pl-2 text-sm ring-1 ring-slate-300 ring-inset"
            >
              <option value="">{m.dashboard_heatmap_recent()}</option>
              {years.map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      {/* Focusable, so a keyboard can scroll back to older weeks where the year does not fit (WCAG 2.1.1). */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard */}
      <div ref={scroller} tabIndex={0} className="mt-4 overflow-x-auto">
        <svg width={width} height={7 * (CELL + GAP) + 16} role="img" aria-label={summary}>
          {months.map((month) => (
            <text key={month.x} x={month.x} y={10} className="fill-slate-500 text-[10px]">
              {month.label}
            </text>
          ))}
          {weeks.map((week, column) =>
            week.map((cell, row) =>
              // A chosen year's map shows that year's days only (its first and last weeks are partly another's).
              year !== null && !cell.date.startsWith(String(year)) ? null : (
                <rect
                  key={cell.date}
                  x={column * (CELL + GAP)}
                  y={16 + row * (CELL + GAP)}
                  width={CELL}
                  height={CELL}
                  rx={2}
                  style={{ fill: HEAT_COLORS[cell.level] }}
                >
                  <title>
                    {m.dashboard_heatmap_cell({ date: formatShortDate(cell.date, getLocale()), count: cell.count })}
                  </title>
                </rect>
              ),
            ),
          )}
        </svg>
      </div>
      <div className="mt-2 flex items-center justify-end gap-1 text-xs text-slate-500" aria-hidden="true">
        {m.dashboard_less()}
        {HEAT_COLORS.map((color) => (
          <span key={color} className="size-2.5 rounded-sm" style={{ background: color }} />
        ))}
        {m.dashboard_more()}
      </div>
    </Panel>
  );
}
