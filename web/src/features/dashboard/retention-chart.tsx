// True retention week by week: each week's share of reviews of mature cards (in review) not rated Again,
// as a line against the learner's desired retention, with a hover readout and a table for screen readers.
// A week without such reviews is a gap in the line, not 0%.
import { useMemo, useState } from 'react';
import uPlot from 'uplot';
import { UPlotChart } from '../../components/uplot-chart';
import { percent } from '../../entities/shared-decks/shared-decks';
import { getLocale, m } from '../../lib/i18n';
import { formatShortDate } from './days';
import { Panel } from './panels';
import type { ReviewMetrics } from './queries';

type Week = ReviewMetrics['retentionWeeks'][number];

const LINE_COLOR = '#10b981';
const AIM_COLOR = '#94a3b8';
const AIM_DASH = [6, 4];
const WEEK_SECONDS = 7 * 86_400;
/** Room for a date under the x axis, in CSS pixels. */
const LABEL_WIDTH = 64;

const seconds = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000;
const dateOfSeconds = (value: number) => new Date(value * 1000).toISOString().slice(0, 10);
const shortDate = (date: string) => formatShortDate(date, getLocale());
const ratio = (week: Week) => (week.mature > 0 ? week.recalled / week.mature : null);

/** Percent on the y axis, from a round number below the lowest week (or the aim) up to 100%. */
function retentionOptions(lowest: number): Omit<uPlot.Options, 'width'> {
  const floor = Math.max(0, Math.floor((lowest - 10) / 10) * 10);
  return {
    height: 180,
    legend: { show: false },
    cursor: { show: true, points: { show: false }, drag: { x: false, y: false } },
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    // Half a week either side, so the first and last points are drawn whole.
    scales: {
      x: { time: true, range: (_u, min, max) => [min - WEEK_SECONDS / 2, max + WEEK_SECONDS / 2] },
      y: { range: () => [floor, 100] },
    },
    axes: [
      {
        grid: { show: false },
        ticks: { show: false },
        font: '11px system-ui, sans-serif',
        // Labels on week starts, as many as fit, counted back from the latest week so it is always named.
        splits: (u) => {
          const starts = Array.from(u.data[0]);
          const fit = Math.max(1, Math.floor(u.bbox.width / uPlot.pxRatio / LABEL_WIDTH));
          const every = Math.ceil(starts.length / fit);
          return starts.filter((_, index) => (starts.length - 1 - index) % every === 0);
        },
        values: (_u, splits) => splits.map((value) => shortDate(dateOfSeconds(value))),
      },
      {
        grid: { width: 1 },
        ticks: { show: false },
        size: 44,
        font: '11px system-ui, sans-serif',
        incrs: [5, 10, 20, 25, 50],
        values: (_u, splits) => splits.map((value) => percent(value / 100)),
      },
    ],
    series: [
      {},
      { stroke: LINE_COLOR, width: 2, points: { show: true, size: 6, fill: LINE_COLOR } },
      { stroke: AIM_COLOR, width: 1.5, dash: AIM_DASH, points: { show: false } },
    ],
  };
}

function Legend({ aim }: { aim: number }) {
  return (
    <ul className="mt-3 flex flex-wrap gap-4 text-xs text-slate-600">
      <li className="flex items-center gap-1.5">
        <span aria-hidden="true" className="h-0.5 w-4" style={{ background: LINE_COLOR }} />
        {m.dashboard_retention_line()}
      </li>
      <li className="flex items-center gap-1.5">
        <span aria-hidden="true" className="w-4 border-t-2 border-dashed" style={{ borderColor: AIM_COLOR }} />
        {m.dashboard_retention_aim({ percent: percent(aim) })}
      </li>
    </ul>
  );
}

/** "45 of 50 recalled (90%)", or that the week had no reviews of mature cards. */
const weekText = (week: Week) =>
  week.mature > 0
    ? m.dashboard_retention_recalled({ recalled: week.recalled, mature: week.mature, percent: percent(ratio(week)) })
    : m.dashboard_retention_no_reviews();

function RetentionTable({ weeks }: { weeks: Week[] }) {
  return (
    // sr-only on a wrapper: a table ignores the 1 px width it gives and would widen a phone's page.
    <div className="sr-only">
      <table aria-label={m.dashboard_retention_table()}>
        <thead>
          <tr>
            <th scope="col">{m.dashboard_week()}</th>
            <th scope="col">{m.dashboard_retention_chart()}</th>
            <th scope="col">{m.dashboard_recalled()}</th>
            <th scope="col">{m.dashboard_mature_reviews()}</th>
          </tr>
        </thead>
        <tbody>
          {weeks
            .filter((week) => week.mature > 0)
            .map((week) => (
              <tr key={week.start}>
                <th scope="row">{week.start}</th>
                <td>{percent(ratio(week))}</td>
                <td>{week.recalled}</td>
                <td>{week.mature}</td>
              </tr>
            ))}
        </tbody>
      </table>
    </div>
  );
}

export function RetentionChart({ metrics }: { metrics: ReviewMetrics }) {
  const weeks = metrics.retentionWeeks;
  const aim = metrics.desiredRetention;
  const [options, data] = useMemo(() => {
    const values = weeks.map((week) => {
      const value = ratio(week);
      return value === null ? null : value * 100;
    });
    const lowest = Math.min(aim * 100, ...values.filter((value) => value !== null));
    const chartData: uPlot.AlignedData = [weeks.map((week) => seconds(week.start)), values, weeks.map(() => aim * 100)];
    return [retentionOptions(lowest), chartData] as const;
  }, [weeks, aim]);
  const [hovered, setHovered] = useState<number | null>(null);
  const mature = weeks.reduce((sum, week) => sum + week.mature, 0);
  const recalled = weeks.reduce((sum, week) => sum + week.recalled, 0);
  const week = hovered === null ? undefined : weeks[hovered];

  if (mature === 0) {
    return (
      <Panel title={m.dashboard_retention_chart()} className="lg:col-span-3">
        <p className="mt-2 max-w-prose text-sm text-slate-600" data-testid="retention-empty">
          {m.dashboard_retention_empty({ percent: percent(aim) })}
        </p>
      </Panel>
    );
  }
  return (
    <Panel title={m.dashboard_retention_chart()} className="lg:col-span-3">
      <p className="mt-1 text-sm text-slate-500" data-testid="retention-summary">
        {week ? (
          <>
            <span className="font-medium text-slate-700">
              {m.dashboard_retention_week({ date: shortDate(week.start) })}
            </span>
            {` · ${weekText(week)}`}
          </>
        ) : (
          m.dashboard_retention_summary({
            weeks: weeks.length,
            percent: percent(recalled / mature),
            recalled,
            mature,
          })
        )}
      </p>
      <div className="mt-4">
        <UPlotChart options={options} data={data} onHover={setHovered} />
      </div>
      <Legend aim={aim} />
      <RetentionTable weeks={weeks} />
    </Panel>
  );
}
