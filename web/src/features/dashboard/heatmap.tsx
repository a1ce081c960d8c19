// The year heatmap: a column per week, a square per day, darker for busier days, with a text summary.
import { useLayoutEffect, useMemo, useRef } from 'react';
import { getLocale, m } from '../../lib/i18n';
import { formatShortDate, heatmapWeeks } from './days';
import { Panel } from './panels';
import type { ReviewMetrics } from './queries';

/** From no reviews to the busiest days; the shades are styles.css's --heat-* (they follow the theme). */
const HEAT_COLORS = [0, 1, 2, 3, 4].map((level) => `var(--heat-${level})`);
const CELL = 11;
const GAP = 3;

export function Heatmap({ metrics, today }: { metrics: ReviewMetrics; today: string }) {
  const weeks = useMemo(() => heatmapWeeks(metrics.heatmap, today), [metrics, today]);
  const total = metrics.heatmap.reduce((sum, day) => sum + day.count, 0);
  const active = metrics.heatmap.filter((day) => day.count > 0).length;
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
      <p className="mt-1 text-sm text-slate-500" data-testid="heatmap-summary">
        {m.dashboard_heatmap_summary({ count: total, days: active })}
      </p>
      {/* Focusable, so a keyboard can scroll back to older weeks where the year does not fit (WCAG 2.1.1). */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard */}
      <div ref={scroller} tabIndex={0} className="mt-4 overflow-x-auto">
        <svg
          width={width}
          height={7 * (CELL + GAP) + 16}
          role="img"
          aria-label={m.dashboard_heatmap_summary({ count: total, days: active })}
        >
          {months.map((month) => (
            <text key={month.x} x={month.x} y={10} className="fill-slate-500 text-[10px]">
              {month.label}
            </text>
          ))}
          {weeks.map((week, column) =>
            week.map((cell, row) => (
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
            )),
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
