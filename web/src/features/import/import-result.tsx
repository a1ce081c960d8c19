// How an import ended. Done: what came in (notes, cards, reviews, images and sounds), what was skipped with
// each reason and its line ("Line 4: The front is empty."), and the ways on: the cards, practice, another
// file. Failed: the reason (nothing was changed) and a way to try another file.
import type { ImportJson } from '@engram/gateway/router';
import { Link } from '@tanstack/react-router';
import { Button, buttonClass } from '../../components/button';
import { m } from '../../lib/i18n';
import { formatCount, problemText } from './wording';

function Count({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-xl bg-slate-50 px-4 py-3 ring-1 ring-slate-200">
      <dt className="text-xs font-medium text-slate-600">{label}</dt>
      <dd className="text-xl font-semibold text-slate-900">{formatCount(value)}</dd>
    </div>
  );
}

function Skipped({ current }: { current: ImportJson }) {
  const { problems, counts } = current;
  if (problems.length === 0 && counts.skipped === 0) return null;
  const more = counts.skipped - problems.filter((problem) => problem.line !== undefined).length;
  return (
    <section aria-labelledby="import-skipped-heading">
      <h3 id="import-skipped-heading" className="text-sm font-semibold text-slate-900">
        {m.import_skipped_heading()}
      </h3>
      <dl className="mt-2 grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="import-skipped">
        <Count label={m.import_count_skipped()} value={counts.skipped} />
      </dl>
      {/* A long list scrolls in its own box, which the keyboard can reach to scroll it. */}
      {problems.length > 0 && (
        <ul
          aria-labelledby="import-skipped-heading"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box must take focus to scroll by keyboard
          tabIndex={0}
          className="mt-3 max-h-64 space-y-1 overflow-y-auto rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200"
        >
          {problems.map((problem, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the problems are a fixed list, shown in their order
            <li key={index}>{problemText(problem)}</li>
          ))}
        </ul>
      )}
      {more > 0 && (
        <p className="mt-2 text-sm text-slate-600">{m.import_problems_more({ count: formatCount(more) })}</p>
      )}
    </section>
  );
}

/** What a finished import brought in and skipped, under its full progress bar, and the ways on. */
export function ImportDone({ current, onAnother }: { current: ImportJson; onAnother: () => void }) {
  const { counts } = current;
  return (
    <>
      <section aria-labelledby="import-imported-heading">
        <h3 id="import-imported-heading" className="text-sm font-semibold text-slate-900">
          {m.import_imported_heading()}
        </h3>
        <dl className="mt-2 grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="import-counts">
          <Count label={m.import_count_notes()} value={counts.notes} />
          <Count label={m.import_count_cards()} value={counts.cards} />
          <Count label={m.import_count_reviews()} value={counts.reviews} />
          <Count label={m.import_count_media()} value={counts.media} />
        </dl>
      </section>
      <Skipped current={current} />
      <div className="flex flex-wrap gap-3">
        <Link to="/dashboard" className={buttonClass('primary')}>
          {m.import_see_cards()}
        </Link>
        <Link to="/practice/new" className={buttonClass('secondary')}>
          {m.import_practice()}
        </Link>
        <Button variant="ghost" onClick={onAnother}>
          {m.import_another()}
        </Button>
      </div>
    </>
  );
}

export function ImportFailed({ current, onAnother }: { current: ImportJson; onAnother: () => void }) {
  const reason = current.problems[0];
  return (
    <section
      aria-labelledby="import-failed-heading"
      className="space-y-4 rounded-xl bg-red-50 px-5 py-4 ring-1 ring-red-200"
      data-testid="import-failed"
    >
      <h2 id="import-failed-heading" className="text-lg font-semibold [overflow-wrap:anywhere] text-red-900">
        {m.import_failed_heading({ name: current.name })}
      </h2>
      <p className="text-sm text-red-800">{reason ? problemText(reason) : m.import_failed_unknown()}</p>
      <Button variant="secondary" onClick={onAnother}>
        {m.import_try_another()}
      </Button>
    </section>
  );
}
