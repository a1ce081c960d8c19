// /practice/done: what the session just counted (from the URL, docs/product.md#search-params) and the streak it
// keeps alive.
import { RATINGS, type RatingName } from '@engram/contracts/learning';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { buttonClass } from '../../components/button';
import { FlameIcon } from '../../components/flame-icon';
import { m } from '../../lib/i18n';
import { streakOptions } from './queries';

const route = getRouteApi('/protected/practice/done');

const RATING_LABELS: Record<RatingName, () => string> = {
  again: m.rating_again,
  hard: m.rating_hard,
  good: m.rating_good,
  easy: m.rating_easy,
};

function NextSteps() {
  return (
    <div className="mt-8 flex flex-wrap justify-center gap-3">
      <Link to="/practice/new" className={buttonClass('primary', 'px-6')}>
        {m.practice_more()}
      </Link>
      <Link to="/dashboard" className={buttonClass('secondary', 'px-6')}>
        {m.practice_back_to_dashboard()}
      </Link>
    </div>
  );
}

function Streak() {
  const streak = useQuery(streakOptions);
  if (!streak.data) return null;
  return (
    <p className="mt-6 flex items-center justify-center gap-1.5 text-sm text-slate-600" data-testid="done-streak">
      <FlameIcon lit={streak.data.current > 0} className="size-5" />
      {m.practice_done_streak({ days: streak.data.current })}
    </p>
  );
}

export function PracticeDoneScreen() {
  const search = route.useSearch();
  // The tiles count answers: a card missed and seen again is one card and two answers, and the line says both.
  const answers = RATINGS.reduce((sum, rating) => sum + (search[rating] ?? 0), 0);
  return (
    <main id="main" tabIndex={-1} className="mx-auto max-w-2xl px-6 py-16 text-center">
      <h1 className="text-3xl font-semibold tracking-tight text-slate-900">{m.practice_done_title()}</h1>
      <p className="mt-2 text-slate-600" data-testid="done-card-count">
        {answers > search.cardCount
          ? m.practice_done_cards_and_answers({ count: search.cardCount, answers })
          : m.practice_done_cards({ count: search.cardCount })}
      </p>
      <dl className="mx-auto mt-8 grid max-w-lg grid-cols-2 gap-3 sm:grid-cols-4">
        {RATINGS.map((rating) => (
          <div key={rating} className="rounded-xl bg-white px-4 py-3 shadow-sm ring-1 ring-slate-200">
            <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{RATING_LABELS[rating]()}</dt>
            <dd className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums">{search[rating] ?? 0}</dd>
          </div>
        ))}
      </dl>
      <Streak />
      <NextSteps />
    </main>
  );
}

/** Shown instead when the URL's counts are missing or not numbers. */
export function PracticeDoneInvalid() {
  return (
    <main id="main" tabIndex={-1} className="mx-auto max-w-2xl px-6 py-16 text-center">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{m.practice_done_invalid_title()}</h1>
      <p className="mt-2 text-sm text-slate-600">{m.practice_done_invalid_text()}</p>
      <NextSteps />
    </main>
  );
}
