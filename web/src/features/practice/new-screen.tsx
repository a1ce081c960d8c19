// /practice/new: pick tags to practise (none means every due card), see how many cards are due, start.
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Button, buttonClass } from '../../components/button';
import { InlineError, InlineLoading } from '../../components/query-states';
import { m } from '../../lib/i18n';
import { dueOptions, tagsOptions } from './queries';

function TagChooser({ selected, onToggle }: { selected: string[]; onToggle: (id: string) => void }) {
  const tags = useInfiniteQuery(tagsOptions);
  if (tags.isPending) return <InlineLoading label={m.practice_tags_loading()} />;
  if (tags.isError) return <InlineError message={m.practice_tags_failed()} onRetry={() => void tags.refetch()} />;
  const items = tags.data.pages.flatMap((page) => page.items);
  if (items.length === 0) return <p className="text-sm text-slate-500">{m.practice_no_tags()}</p>;
  return (
    <div>
      <ul className="flex flex-wrap gap-2" aria-label={m.practice_tags_heading()}>
        {items.map((tag) => {
          const on = selected.includes(tag.id);
          return (
            <li key={tag.id}>
              <button
                type="button"
                aria-pressed={on}
                onClick={() => onToggle(tag.id)}
                className={`rounded-full px-3.5 py-1.5 text-sm font-medium ring-1 transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${
                  on
                    ? 'bg-brand-600 text-white ring-brand-600'
                    : 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-50'
                }`}
              >
                {tag.name}
              </button>
            </li>
          );
        })}
      </ul>
      {tags.hasNextPage && (
        <Button
          variant="ghost"
          className="mt-3"
          pending={tags.isFetchingNextPage}
          onClick={() => void tags.fetchNextPage()}
        >
          {m.practice_more_tags()}
        </Button>
      )}
    </div>
  );
}

export function PracticeNewScreen() {
  const [selected, setSelected] = useState<string[]>([]);
  const due = useQuery(dueOptions(selected));
  const toggle = (id: string) =>
    setSelected((current) => (current.includes(id) ? current.filter((tag) => tag !== id) : [...current, id]));
  const count = due.data?.items.length;

  return (
    <main id="main" tabIndex={-1} className="mx-auto max-w-3xl px-6 py-10">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{m.practice_new_title()}</h1>
      <p className="mt-1 text-sm text-slate-600">{m.practice_new_intro()}</p>
      <section className="mt-8 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h2 className="mb-4 text-sm font-semibold tracking-wide text-slate-500 uppercase">
          {m.practice_tags_heading()}
        </h2>
        <TagChooser selected={selected} onToggle={toggle} />
      </section>
      <section className="mt-6 flex flex-wrap items-center justify-between gap-4 rounded-xl bg-brand-50 p-6 ring-1 ring-brand-100">
        <div aria-live="polite">
          {due.isError ? (
            <InlineError message={m.practice_due_failed()} onRetry={() => void due.refetch()} />
          ) : count === undefined ? (
            <InlineLoading label={m.practice_due_loading()} />
          ) : (
            <p className="text-lg font-semibold text-slate-900" data-testid="due-count">
              {m.practice_due_count({ count })}
            </p>
          )}
        </div>
        {count === 0 ? (
          <Link to="/dashboard" className={buttonClass('secondary')}>
            {m.practice_back_to_dashboard()}
          </Link>
        ) : (
          <Link
            to="/practice/session"
            search={selected.length > 0 ? { tags: selected } : {}}
            disabled={count === undefined}
            className={buttonClass('primary', 'px-6')}
          >
            {m.practice_start()}
          </Link>
        )}
      </section>
    </main>
  );
}
