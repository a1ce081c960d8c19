// "/browse" (docs/product.md#browse): the learner's cards searched with Anki's syntax, counted, sorted by a
// column, a page of 50 at a time with "Load more"; cards chosen one by one, a page at once, or all the search
// finds, take the bulk actions (bulk-bar.tsx), each undoable from its toast. Saved searches run with a click. The
// duplicates view groups cards whose first side is the same.
import { BROWSE_SORTS } from '@engram/contracts/browse';
import type { BrowseSearch, BrowseSortName } from '@engram/contracts/search';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useCallback, useEffect, useState } from 'react';
import { LoadMore } from '../../components/load-more';
import { InlineError, InlineLoading } from '../../components/query-states';
import { m } from '../../lib/i18n';
import { browseOptions, countOptions } from './browse-calls';
import { BrowseResults } from './browse-results';
import { BulkBar, type Selection } from './bulk-bar';
import { DuplicateGroups } from './duplicate-groups';
import { SavedSearches } from './saved-searches';
import { problemOf, SearchBox } from './search-box';

const browseRoute = getRouteApi('/protected/browse');

const SORT_LABELS: Record<BrowseSortName, () => string> = {
  added: () => m.browse_column_added(),
  due: () => m.browse_column_due(),
  interval: () => m.browse_column_interval(),
  front: () => m.browse_column_card(),
  reps: () => m.browse_column_reps(),
  lapses: () => m.browse_column_lapses(),
};

export function BrowseScreen() {
  const search = browseRoute.useSearch();
  const navigate = browseRoute.useNavigate();
  const query = search.q ?? '';
  const sort = search.sort ?? 'added';
  const ascending = search.asc ?? false;
  const duplicatesView = search.view === 'duplicates';
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [allMatching, setAllMatching] = useState(false);
  // A malformed search in the address (typed into it, or an old link) is pointed at by the search box, not sent.
  const readable = !problemOf(query);
  const list = useInfiniteQuery({ ...browseOptions(query, sort, ascending), enabled: !duplicatesView && readable });
  const count = useQuery({ ...countOptions(query), enabled: !duplicatesView && readable });
  const cards = list.data?.pages.flatMap((page) => page.items) ?? [];
  const total = count.data?.count;

  // A new search, sort or view starts a new selection.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the effect is the reset those values call for
  useEffect(() => {
    setSelected(new Set());
    setAllMatching(false);
  }, [query, sort, ascending, duplicatesView]);

  const setSearch = (next: Partial<BrowseSearch>) =>
    void navigate({ search: (previous: BrowseSearch) => ({ ...previous, ...next }), replace: true });
  const onSearch = useCallback(
    (text: string) =>
      void navigate({
        search: (previous: BrowseSearch) => ({ ...previous, q: text.trim() === '' ? undefined : text }),
        replace: true,
      }),
    [navigate],
  );
  const onSort = (next: BrowseSortName) =>
    setSearch({
      sort: next === 'added' ? undefined : next,
      asc: next === sort ? (!ascending ? true : undefined) : next === 'front' ? true : undefined,
    });
  const toggle = (id: string) => {
    setAllMatching(false);
    setSelected((previous) => {
      const next = new Set(previous);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  };
  const toggleAll = (ids: string[], on: boolean) => {
    setAllMatching(false);
    setSelected((previous) => {
      const next = new Set(previous);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });
  };
  const clear = () => {
    setSelected(new Set());
    setAllMatching(false);
  };
  const selection: Selection | undefined = allMatching
    ? { query, count: total ?? 0 }
    : selected.size > 0
      ? { cardIds: [...selected] }
      : undefined;
  const pageChosen = cards.length > 0 && cards.every((card) => selected.has(card.id));

  return (
    <main id="main" tabIndex={-1} className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{m.browse_title()}</h1>
        <nav aria-label={m.browse_views()} className="flex gap-1 text-sm">
          <Link
            to="/browse"
            search={(previous: BrowseSearch) => ({ ...previous, view: undefined })}
            aria-current={duplicatesView ? undefined : 'page'}
            className={`rounded-md px-3 py-1.5 font-medium ${duplicatesView ? 'text-slate-600 hover:bg-slate-100' : 'bg-slate-900 text-white'}`}
          >
            {m.browse_view_cards()}
          </Link>
          <Link
            to="/browse"
            search={(previous: BrowseSearch) => ({ ...previous, view: 'duplicates' as const })}
            aria-current={duplicatesView ? 'page' : undefined}
            className={`rounded-md px-3 py-1.5 font-medium ${duplicatesView ? 'bg-slate-900 text-white' : 'text-slate-600 hover:bg-slate-100'}`}
          >
            {m.browse_view_duplicates()}
          </Link>
        </nav>
      </div>

      {duplicatesView ? (
        <div className="mt-6">
          <p className="mb-4 text-sm text-slate-600">{m.browse_duplicates_intro()}</p>
          <DuplicateGroups selected={selected} onToggle={toggle} />
        </div>
      ) : (
        <>
          <div className="mt-4 grid gap-4 lg:grid-cols-[2fr_1fr]">
            <SearchBox value={query} onSearch={onSearch} />
            <SavedSearches query={query} onRun={onSearch} />
          </div>
          <div className="mt-6 flex flex-wrap items-center justify-between gap-3">
            <p className="text-sm text-slate-700" aria-live="polite">
              {total === undefined ? '' : m.browse_count({ count: total })}
            </p>
            <label className="flex max-w-full min-w-0 flex-wrap items-center gap-2 text-sm text-slate-700 sm:hidden">
              {m.browse_sort_label()}
              <select
                value={`${sort}:${ascending ? 'asc' : 'desc'}`}
                onChange={(event) => {
                  const [next = 'added', direction] = event.target.value.split(':');
                  setSearch({
                    sort: next === 'added' ? undefined : (next as BrowseSortName),
                    asc: direction === 'asc' ? true : undefined,
                  });
                }}
                className="max-w-full min-w-0 rounded-lg border-0 bg-white py-1.5 pr-8 pl-3 text-sm shadow-sm ring-1 ring-slate-300 ring-inset"
              >
                {BROWSE_SORTS.flatMap((name) =>
                  (['desc', 'asc'] as const).map((direction) => (
                    <option key={`${name}:${direction}`} value={`${name}:${direction}`}>
                      {direction === 'asc'
                        ? m.browse_sort_ascending({ column: SORT_LABELS[name]() })
                        : m.browse_sort_descending({ column: SORT_LABELS[name]() })}
                    </option>
                  )),
                )}
              </select>
            </label>
          </div>
          {pageChosen && total !== undefined && total > cards.length && !allMatching && (
            <p className="mt-2 rounded-lg bg-brand-50 px-3 py-2 text-sm text-brand-900">
              {m.browse_page_chosen({ count: cards.length })}{' '}
              <button type="button" className="font-medium underline" onClick={() => setAllMatching(true)}>
                {m.browse_choose_all({ count: total })}
              </button>
            </p>
          )}
          {allMatching && (
            <p className="mt-2 rounded-lg bg-brand-50 px-3 py-2 text-sm text-brand-900">
              {m.browse_all_chosen({ count: total ?? 0 })}{' '}
              <button type="button" className="font-medium underline" onClick={clear}>
                {m.browse_clear_selection()}
              </button>
            </p>
          )}
          <div className="mt-3">
            {!readable ? null : list.isPending ? (
              <InlineLoading label={m.browse_loading()} />
            ) : list.isError ? (
              <InlineError message={m.browse_error()} onRetry={() => void list.refetch()} />
            ) : cards.length === 0 ? (
              <p className="rounded-xl bg-white p-6 text-sm text-slate-600 ring-1 ring-slate-200">
                {query ? m.browse_no_match() : m.browse_empty()}
              </p>
            ) : (
              <BrowseResults
                cards={cards}
                selected={allMatching ? new Set(cards.map((card) => card.id)) : selected}
                onToggle={toggle}
                onToggleAll={toggleAll}
                sort={sort}
                ascending={ascending}
                onSort={onSort}
              />
            )}
            <LoadMore list={list} />
          </div>
        </>
      )}
      {selection && <BulkBar selection={selection} onDone={clear} />}
    </main>
  );
}
