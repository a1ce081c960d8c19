// Choosing a preset's desired retention: the learner's next year simulated at several retentions side by side
// (their own cards, parameters and pace; settings.simulate), drawn as minutes a day (a week's average, so the
// lines read as trends) with a table of the same figures, and the recommended retention with its reason and a
// button that makes it the preset's. A small collection, whose every day takes under a minute, is drawn and
// tabled in seconds (tenths of one under ten), so its figures never read 0.0 minutes or 0 seconds beside reviews.
import { MAX_SIMULATED_DAYS, RECOMMENDABLE_RETENTIONS } from '@engram/contracts/scheduling';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type uPlot from 'uplot';
import { Button } from '../../components/button';
import { InlineError, InlineLoading } from '../../components/query-states';
import { UPlotChart } from '../../components/uplot-chart';
import { percent } from '../../entities/shared-decks/shared-decks';
import { toastError } from '../../lib/errors';
import { getLocale, m } from '../../lib/i18n';
import { queryClient } from '../../lib/query-client';
import { toast } from '../../lib/toast';
import { trpc } from '../../lib/trpc';
import type { Preset } from './preset-draft';

/** The retentions compared, besides the preset's own. */
const COMPARED = [0.8, 0.85, 0.9, 0.95];
const COLORS = ['#f59e0b', '#10b981', '#6366f1', '#ec4899', '#64748b'];
/** Minutes a day are drawn as the average of this many days around each. */
const SMOOTHING_DAYS = 7;

const number = (value: number, digits = 0) =>
  new Intl.NumberFormat(getLocale(), { maximumFractionDigits: digits, minimumFractionDigits: digits }).format(value);
const shortDate = (seconds: number) =>
  new Intl.DateTimeFormat(getLocale(), { month: 'short', timeZone: 'UTC' }).format(new Date(seconds * 1000));

/** Seconds when no retention's day takes a minute on average (with tenths when none takes ten), else minutes. */
function unitOf(runs: { totalMinutes: number; daily: unknown[] }[]) {
  const longest = Math.max(...runs.map((run) => run.totalMinutes / Math.max(1, run.daily.length)));
  if (longest >= 1) return { perMinute: 1, digits: 1, label: m.settings_simulator_minutes() };
  return { perMinute: 60, digits: longest * 60 < 10 ? 1 : 0, label: m.settings_simulator_seconds() };
}

function smooth(values: number[]): number[] {
  const half = Math.floor(SMOOTHING_DAYS / 2);
  return values.map((_, index) => {
    const window = values.slice(Math.max(0, index - half), index + half + 1);
    return window.reduce((sum, value) => sum + value, 0) / window.length;
  });
}

function chartOptions(series: { label: string; color: string }[]): Omit<uPlot.Options, 'width'> {
  return {
    height: 220,
    legend: { show: false },
    cursor: { show: true, points: { show: false }, drag: { x: false, y: false } },
    scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(5, Math.ceil(max * 1.1))] } },
    axes: [
      {
        grid: { show: false },
        ticks: { show: false },
        font: '11px system-ui, sans-serif',
        values: (_u, splits) => splits.map(shortDate),
      },
      { grid: { width: 1 }, ticks: { show: false }, size: 40, font: '11px system-ui, sans-serif' },
    ],
    series: [{}, ...series.map(({ label, color }) => ({ label, stroke: color, width: 2, points: { show: false } }))],
  };
}

function Recommendation({ preset, onApplied }: { preset: Preset; onApplied: () => void }) {
  const input = preset.id ? { presetId: preset.id } : {};
  const recommendation = useQuery(trpc.settings.recommendRetention.queryOptions(input));
  const apply = useMutation(
    trpc.settings.updatePreset.mutationOptions({
      onSuccess: async (saved) => {
        toast.success(m.settings_recommend_applied({ percent: percent(saved.desiredRetention) }));
        onApplied();
        await queryClient.invalidateQueries({ queryKey: trpc.settings.pathKey() });
      },
      onError: toastError,
    }),
  );
  const found = recommendation.data;
  if (!found) return null;
  if (found.cardCount < found.cardsNeeded) {
    return (
      <p className="rounded-lg bg-slate-50 px-4 py-3 text-sm text-slate-700 ring-1 ring-slate-200">
        {m.settings_recommend_too_few({ count: number(found.cardCount), needed: number(found.cardsNeeded) })}
      </p>
    );
  }
  const same = Math.abs(found.desiredRetention - preset.desiredRetention) < 0.005;
  return (
    <div className="flex flex-col gap-3 rounded-lg bg-brand-50 px-4 py-3 ring-1 ring-brand-100 sm:flex-row sm:items-center sm:justify-between">
      <div className="space-y-1">
        <p className="text-sm text-slate-800">
          {same
            ? m.settings_recommend_same({ percent: percent(preset.desiredRetention) })
            : m.settings_recommend({
                percent: percent(found.desiredRetention),
                perMinute: number(found.rememberedPerMinute, 1),
                current: number(found.currentPerMinute, 1),
                currentPercent: percent(found.currentRetention),
              })}
        </p>
        <p className="text-xs text-slate-600">
          {m.settings_recommend_floor({ percent: percent(RECOMMENDABLE_RETENTIONS[0]) })}
        </p>
      </div>
      {!same && (
        <Button
          pending={apply.isPending}
          onClick={() => apply.mutate({ ...input, desiredRetention: found.desiredRetention })}
          className="shrink-0"
        >
          {m.settings_recommend_apply({ percent: percent(found.desiredRetention) })}
        </Button>
      )}
    </div>
  );
}

export function SimulatorPanel({ preset, onApplied }: { preset: Preset; onApplied: () => void }) {
  const retentions = [...new Set([...COMPARED, preset.desiredRetention])].sort((a, b) => a - b);
  const simulation = useQuery({
    ...trpc.settings.simulate.queryOptions({
      ...(preset.id && { presetId: preset.id }),
      desiredRetentions: retentions,
      days: MAX_SIMULATED_DAYS,
    }),
    // A new retention asks for another simulation: the last one stays on screen until it comes.
    placeholderData: keepPreviousData,
  });
  const runs = simulation.data;
  const chart = useMemo(() => {
    if (!runs?.length) return null;
    const dates = (runs[0]?.daily ?? []).map(({ date }) => Date.parse(`${date}T00:00:00Z`) / 1000);
    const series = runs.map((run, index) => ({
      label: m.settings_simulator_series({ percent: percent(run.desiredRetention) }),
      color: COLORS[index % COLORS.length] as string,
    }));
    const unit = unitOf(runs);
    const data: uPlot.AlignedData = [
      dates,
      ...runs.map((run) => smooth(run.daily.map(({ minutes }) => minutes * unit.perMinute))),
    ];
    return { options: chartOptions(series), data, series, unit };
  }, [runs]);
  return (
    <div className="space-y-4 border-t border-slate-200 pt-6">
      <div>
        <h3 className="text-base font-semibold text-slate-900">{m.settings_simulator_heading()}</h3>
        <p className="mt-1 text-sm text-slate-600">{m.settings_simulator_intro()}</p>
      </div>
      {simulation.isPending ? (
        <InlineLoading label={m.settings_simulator_loading()} />
      ) : simulation.isError || !runs || !chart ? (
        <InlineError message={m.settings_simulator_failed()} onRetry={() => void simulation.refetch()} />
      ) : (
        <>
          <figure aria-label={m.settings_simulator_table()}>
            <p className="mb-1 text-xs text-slate-500">{chart.unit.label}</p>
            <UPlotChart options={chart.options} data={chart.data} />
            <ul className="mt-3 flex flex-wrap gap-4 text-xs text-slate-600">
              {chart.series.map(({ label, color }) => (
                <li key={label} className="flex items-center gap-1.5">
                  <span aria-hidden="true" className="h-0.5 w-4" style={{ background: color }} />
                  {label}
                </li>
              ))}
            </ul>
          </figure>
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">{m.settings_simulator_table()}</caption>
              <thead>
                <tr className="border-b border-slate-200 text-xs text-slate-500">
                  <th scope="col" className="py-2 pr-4 font-medium">
                    {m.settings_simulator_retention()}
                  </th>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    {chart.unit.label}
                  </th>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    {m.settings_simulator_reviews()}
                  </th>
                  <th scope="col" className="py-2 font-medium">
                    {m.settings_simulator_remembered()}
                  </th>
                </tr>
              </thead>
              <tbody>
                {runs.map((run) => (
                  <tr key={run.desiredRetention} className="border-b border-slate-100">
                    <th scope="row" className="py-2 pr-4 font-normal text-slate-700">
                      {run.desiredRetention === preset.desiredRetention
                        ? m.settings_simulator_current({ percent: percent(run.desiredRetention) })
                        : percent(run.desiredRetention)}
                    </th>
                    <td className="py-2 pr-4 tabular-nums">
                      {number(
                        (run.totalMinutes / Math.max(1, run.daily.length)) * chart.unit.perMinute,
                        chart.unit.digits,
                      )}
                    </td>
                    <td className="py-2 pr-4 tabular-nums">
                      {number(run.daily.reduce((sum, day) => sum + day.reviews, 0))}
                    </td>
                    <td className="py-2 tabular-nums">{number(run.remembered)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Recommendation preset={preset} onApplied={onApplied} />
        </>
      )}
    </div>
  );
}
