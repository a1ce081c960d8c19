// The dashboard's headline panels: progress (cards by state, due today, today's goal, "Practice now") and
// the streak. Each shows its own loading and error state; offline, the figures the device works out with the reviews
// done on it (entities/offline), or that they wait for the network.
import { REVIEW_STATES, type ReviewState } from '@engram/contracts/learning';
import type { Progress, Streak } from '@engram/contracts/offline-dashboard';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { buttonClass } from '../../components/button';
import { FlameIcon } from '../../components/flame-icon';
import { InlineError, InlineLoading } from '../../components/query-states';
import { m } from '../../lib/i18n';
import { useOnline } from '../../lib/online';
import { cardsAndItems } from './counts';
import { progressOptions, streakOptions } from './queries';

export const STATE_COLORS: Record<ReviewState, string> = {
  new: 'bg-sky-400',
  learning: 'bg-amber-400',
  review: 'bg-emerald-500',
  relearning: 'bg-rose-400',
};
const STATE_LABELS: Record<ReviewState, () => string> = {
  new: m.state_new,
  learning: m.state_learning,
  review: m.state_review,
  relearning: m.state_relearning,
};

export function Panel({ title, children, className = '' }: { title: string; children: ReactNode; className?: string }) {
  return (
    <section aria-label={title} className={`rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 ${className}`}>
      <h2 className="text-sm font-semibold tracking-wide text-slate-500 uppercase">{title}</h2>
      {children}
    </section>
  );
}

/** Said offline where a panel's figures wait for the network (none kept on the device). */
function ShownWhenOnline() {
  return <p className="mt-4 text-sm text-slate-500">{m.offline_shown_when_online()}</p>;
}

/** Offline, under figures the device worked out: they include the reviews done on it. */
function CountedHere() {
  return <p className="mt-4 text-xs text-slate-500">{m.offline_counted_here()}</p>;
}

/**
 * A panel's figures: the server's (undefined while they load), or offline those the device worked out with its own
 * reviews (`onDevice`, null before the device has a set).
 */
function useFigures<T>(server: { data: T | undefined }, onDevice: T | null): { data: T | undefined; here: boolean } {
  const online = useOnline();
  if (online || !onDevice) return { data: server.data, here: false };
  return { data: onDevice, here: true };
}

/** A panel's figures loading, at about the height they will take: nothing below jumps when they come. */
function Loading({ height }: { height: string }) {
  return (
    <div className={height}>
      <InlineLoading label={m.dashboard_loading()} />
    </div>
  );
}

export function ProgressPanel({ onDevice }: { onDevice: Progress | null }) {
  const progress = useQuery(progressOptions);
  const figures = useFigures(progress, onDevice);
  let body: ReactNode;
  if (!figures.data && progress.fetchStatus === 'paused') body = <ShownWhenOnline />;
  else if (!figures.data && progress.isError) {
    body = <InlineError message={m.dashboard_load_failed()} onRetry={() => void progress.refetch()} />;
  } else if (!figures.data) body = <Loading height="min-h-[16.75rem] sm:min-h-[15.25rem]" />;
  else {
    const p = figures.data;
    const items = REVIEW_STATES.reduce((sum, state) => sum + p[state], 0);
    const goal = p.dailyGoal > 0 ? Math.min(1, p.reviewedToday / p.dailyGoal) : 0;
    body = (
      <>
        <div className="mt-4 flex flex-wrap items-end justify-between gap-6">
          <div>
            <p className="text-5xl font-semibold tracking-tight text-slate-900 tabular-nums" data-testid="due-today">
              {p.dueToday}
            </p>
            <p className="mt-1 text-sm text-slate-500">{m.dashboard_due_today()}</p>
          </div>
          <Link
            to="/practice/session"
            disabled={p.dueToday === 0}
            className={buttonClass(p.dueToday === 0 ? 'secondary' : 'primary', 'px-6 py-3')}
          >
            {p.dueToday === 0 ? m.dashboard_all_done() : m.dashboard_practice_now()}
          </Link>
        </div>
        <div className="mt-6">
          <div className="flex justify-between text-sm">
            <span className="font-medium text-slate-700">{m.dashboard_goal()}</span>
            <span className="text-slate-500 tabular-nums" data-testid="goal-progress">
              {m.dashboard_goal_progress({ done: p.reviewedToday, goal: p.dailyGoal })}
            </span>
          </div>
          <div className="mt-2 h-2 overflow-hidden rounded-full bg-slate-100">
            <div className="h-full rounded-full bg-brand-600" style={{ width: `${goal * 100}%` }} />
          </div>
        </div>
        <div className="mt-6">
          <p className="text-sm font-medium text-slate-700" data-testid="cards-total">
            {cardsAndItems(p.total, items)}
          </p>
          <div className="mt-2 flex h-3 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
            {REVIEW_STATES.map((state) =>
              p[state] > 0 ? (
                <div key={state} className={STATE_COLORS[state]} style={{ width: `${(p[state] / items) * 100}%` }} />
              ) : null,
            )}
          </div>
          <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
            {REVIEW_STATES.map((state) => (
              <div key={state} className="flex items-center gap-2">
                <span className={`size-2.5 rounded-full ${STATE_COLORS[state]}`} aria-hidden="true" />
                <dt className="text-slate-500">{STATE_LABELS[state]()}</dt>
                <dd className="ml-auto font-medium text-slate-900 tabular-nums">{p[state]}</dd>
              </div>
            ))}
          </dl>
        </div>
        {figures.here && <CountedHere />}
      </>
    );
  }
  return (
    <Panel title={m.dashboard_progress()} className="lg:col-span-2">
      {body}
    </Panel>
  );
}

export function StreakPanel({ onDevice }: { onDevice: Streak | null }) {
  const streak = useQuery(streakOptions);
  const figures = useFigures(streak, onDevice);
  let body: ReactNode;
  if (!figures.data && streak.fetchStatus === 'paused') body = <ShownWhenOnline />;
  else if (!figures.data && streak.isError) {
    body = <InlineError message={m.dashboard_load_failed()} onRetry={() => void streak.refetch()} />;
  } else if (!figures.data) body = <Loading height="min-h-[8.5rem]" />;
  else {
    const s = figures.data;
    body = (
      <>
        <div className="mt-4 flex items-center gap-3">
          <FlameIcon lit={s.current > 0} className="size-11" />
          <p>
            <span
              className="text-5xl font-semibold tracking-tight text-slate-900 tabular-nums"
              data-testid="streak-current"
            >
              {s.current}
            </span>
            <span className="ml-2 text-sm text-slate-500">{m.dashboard_streak_days()}</span>
          </p>
        </div>
        <dl className="mt-6 space-y-2 text-sm">
          <div className="flex justify-between">
            <dt className="text-slate-500">{m.dashboard_streak_longest()}</dt>
            <dd className="font-medium text-slate-900 tabular-nums" data-testid="streak-longest">
              {s.longest}
            </dd>
          </div>
          <div className="flex justify-between">
            <dt className="text-slate-500">{m.dashboard_streak_today()}</dt>
            <dd className={`font-medium ${s.reviewedToday ? 'text-emerald-700' : 'text-slate-500'}`}>
              {s.reviewedToday ? m.dashboard_yes() : m.dashboard_not_yet()}
            </dd>
          </div>
        </dl>
        {figures.here && <CountedHere />}
      </>
    );
  }
  return <Panel title={m.dashboard_streak()}>{body}</Panel>;
}
