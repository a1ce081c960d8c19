// A preset's memory model: whether its parameters are FSRS-6's defaults or the learner's own (and since when),
// the last optimization's figures (log loss and RMSE on the learner's later reviews, before and after), and the
// optimizer itself, a background job followed with its progress until it says what it found.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../components/button';
import { ProgressBar } from '../../components/progress-bar';
import { percent } from '../../entities/shared-decks/shared-decks';
import { toastError } from '../../lib/errors';
import { getLocale, m } from '../../lib/i18n';
import { queryClient } from '../../lib/query-client';
import { trpc } from '../../lib/trpc';
import type { Preset } from './preset-draft';

/** How often a running optimization is asked how far it has come. */
const POLL_MS = 1000;

type Evaluation = NonNullable<Preset['evaluation']>;

const formatDate = (iso: string) => new Intl.DateTimeFormat(getLocale(), { dateStyle: 'medium' }).format(new Date(iso));
const figure = (value: number) =>
  new Intl.NumberFormat(getLocale(), { minimumFractionDigits: 3, maximumFractionDigits: 3 }).format(value);

function EvaluationTable({ evaluation }: { evaluation: Evaluation }) {
  const rows = [
    { label: m.settings_evaluation_log_loss(), before: evaluation.logLossBefore, after: evaluation.logLossAfter },
    { label: m.settings_evaluation_rmse(), before: evaluation.rmseBefore, after: evaluation.rmseAfter },
  ];
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="mb-2 text-left text-xs text-slate-500">
          {m.settings_evaluation_caption({
            reviews: evaluation.reviews,
            trainedOn: evaluation.trainedOn,
            date: formatDate(evaluation.measuredAt),
          })}
        </caption>
        <thead>
          <tr className="border-b border-slate-200 text-xs text-slate-500">
            <th scope="col" className="py-2 pr-4 font-medium">
              {m.settings_evaluation_measure()}
            </th>
            <th scope="col" className="py-2 pr-4 font-medium">
              {m.settings_evaluation_before()}
            </th>
            <th scope="col" className="py-2 font-medium">
              {m.settings_evaluation_after()}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.label} className="border-b border-slate-100">
              <th scope="row" className="py-2 pr-4 font-normal text-slate-700">
                {row.label}
              </th>
              <td className="py-2 pr-4 tabular-nums text-slate-900">{figure(row.before)}</td>
              <td
                className={`py-2 tabular-nums ${row.after < row.before ? 'font-semibold text-emerald-700' : 'text-slate-900'}`}
              >
                {figure(row.after)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** What a finished optimization found, in words. */
function outcomeText(optimization: {
  status: string;
  outcome: string | null;
  failure: string | null;
  reviews: number;
  needed: number;
}): string | null {
  if (optimization.status === 'failed') {
    if (optimization.failure === 'out-of-memory') return m.settings_optimize_failed_memory();
    if (optimization.failure === 'timed-out') return m.settings_optimize_failed_time();
    if (optimization.failure === 'gave-up') return m.settings_optimize_failed_gave_up();
    return m.settings_optimize_failed();
  }
  if (optimization.status !== 'done') return null;
  if (optimization.outcome === 'adopted') return m.settings_optimize_adopted();
  if (optimization.outcome === 'not-better') return m.settings_optimize_not_better();
  return m.settings_optimize_too_few({
    reviews: optimization.reviews,
    needed: optimization.needed,
    more: Math.max(0, optimization.needed - optimization.reviews),
  });
}

export function OptimizerPanel({ preset, onAdopted }: { preset: Preset; onAdopted: () => void }) {
  const [jobId, setJobId] = useState<string | null>(null);
  // The reviews of deleted cards are learned from unless the learner leaves them out.
  const [excludeDeleted, setExcludeDeleted] = useState(false);
  const reported = useRef<string | null>(null);
  const start = useMutation(
    trpc.settings.optimize.mutationOptions({
      onSuccess: ({ jobId: id }) => setJobId(id),
      onError: toastError,
    }),
  );
  const optimization = useQuery({
    ...trpc.settings.optimization.queryOptions({ jobId: jobId ?? '' }),
    enabled: jobId !== null,
    refetchInterval: (query) =>
      query.state.data?.status === 'done' || query.state.data?.status === 'failed' ? false : POLL_MS,
  });
  const job = jobId !== null ? optimization.data : undefined;
  const finished = job?.status === 'done' || job?.status === 'failed';
  // Once finished, the preset's figures (and parameters, if adopted) are read again, once.
  const finishedId = job && finished ? job.id : null;
  const adopted = job?.outcome === 'adopted';
  useEffect(() => {
    if (finishedId === null || reported.current === finishedId) return;
    reported.current = finishedId;
    void queryClient.invalidateQueries({ queryKey: trpc.settings.get.queryKey() });
    if (adopted) onAdopted();
  }, [finishedId, adopted, onAdopted]);
  const running = start.isPending || (jobId !== null && !finished);
  const message = job ? outcomeText(job) : null;
  return (
    <div className="space-y-4 border-t border-slate-200 pt-6">
      <h3 className="text-base font-semibold text-slate-900">{m.settings_parameters_heading()}</h3>
      <p className="text-sm text-slate-700">
        {preset.optimizedAt
          ? m.settings_parameters_own({ date: formatDate(preset.optimizedAt) })
          : m.settings_parameters_default()}
      </p>
      {preset.evaluation && <EvaluationTable evaluation={preset.evaluation} />}
      <p className="text-xs text-slate-500">{m.settings_optimize_hint()}</p>
      <label className="flex items-center gap-3 text-sm text-slate-700">
        <input
          type="checkbox"
          name="excludeDeletedCards"
          checked={excludeDeleted}
          onChange={(event) => setExcludeDeleted(event.target.checked)}
          className="size-4 rounded border-slate-300 text-brand-600 focus:ring-brand-600"
        />
        {m.settings_optimize_exclude_deleted()}
      </label>
      <Button
        variant="secondary"
        pending={running}
        onClick={() => start.mutate({ ...(preset.id && { presetId: preset.id }), excludeDeletedCards: excludeDeleted })}
      >
        {m.settings_optimize()}
      </Button>
      {running && jobId !== null && (
        <ProgressBar
          label={m.settings_optimize_progress_label()}
          value={job?.progress.done ?? 0}
          max={job?.progress.total ?? 0}
          text={
            job?.status === 'running' && job.progress.total > 0
              ? m.settings_optimize_running({ percent: percent(job.progress.done / job.progress.total) })
              : m.settings_optimize_queued()
          }
        />
      )}
      {message && (
        <p role="status" className="rounded-lg bg-slate-50 px-4 py-3 text-sm text-slate-700 ring-1 ring-slate-200">
          {message}
        </p>
      )}
    </div>
  );
}
