// The user's cards, newest first, ten at a time with "Load more" following nextCursor; searchable by
// text (as you type, debounced; accents and case aside, tag names too) and by tag, with the archived ones
// one toggle away. The search text starts from the page's URL and goes back into it (onSearch), so a
// reload or a shared link keeps it. An empty collection points a new learner to the import screen.
import { SEARCH_QUERY_MAX_LENGTH } from '@engram/contracts/learning';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../components/button';
import { InlineError, InlineLoading } from '../../components/query-states';
import { type CardFilter, cardsOptions, tagsOptions } from '../../entities/cards/queries';
import { m } from '../../lib/i18n';
import { useDebounced } from '../../lib/use-debounced';
import { CardItem } from './card-item';

const SEARCH_DELAY_MS = 300;

function TagFilter({ value, onChange }: { value: string; onChange: (tagId: string) => void }) {
  const id = useId();
  const [opened, setOpened] = useState(false);
  const tags = useInfiniteQuery({ ...tagsOptions, enabled: opened });
  const all = tags.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <div>
      <label htmlFor={id} className="sr-only">
        {m.cards_filter_tag()}
      </label>
      <select
        id={id}
        value={value}
        onFocus={() => setOpened(true)}
        onPointerEnter={() => setOpened(true)}
        onChange={(event) => {
          if (event.target.value === '') onChange('');
          else onChange(event.target.value);
        }}
        className="rounded-lg border-0 bg-white py-2 pr-8 pl-3 text-sm text-slate-700 shadow-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600"
      >
        <option value="">{m.cards_filter_all_tags()}</option>
        {all.map((tag) => (
          <option key={tag.id} value={tag.id}>
            {tag.name}
          </option>
        ))}
      </select>
    </div>
  );
}

function EmptyState({ filtered }: { filtered: boolean }) {
  return (
    <div className="rounded-xl border-2 border-dashed border-slate-200 bg-white/60 px-6 py-14 text-center">
      <p className="font-medium text-slate-900">{filtered ? m.cards_no_match_title() : m.cards_empty_title()}</p>
      <p className="mt-1 text-sm text-slate-500">{filtered ? m.cards_no_match_text() : m.cards_empty_text()}</p>
      {!filtered && (
        <Link to="/import" className="mt-3 inline-block text-sm font-medium text-brand-700 hover:text-brand-800">
          {m.cards_empty_import()}
        </Link>
      )}
    </div>
  );
}

type CardListProps = { initialSearch?: string; onSearch?: (text: string) => void };

export function CardList({ initialSearch = '', onSearch }: CardListProps) {
  const [search, setSearch] = useState(initialSearch);
  const [tagId, setTagId] = useState('');
  const [archived, setArchived] = useState(false);
  const query = useDebounced(search.trim(), SEARCH_DELAY_MS);
  const reported = useRef(initialSearch.trim());
  useEffect(() => {
    if (query === reported.current) return;
    reported.current = query;
    onSearch?.(query);
  }, [query, onSearch]);
  const filter: CardFilter = {
    archived,
    ...(query !== '' && { query }),
    ...(tagId !== '' && { tagIds: [tagId] }),
  };
  const list = useInfiniteQuery({ ...cardsOptions(filter), placeholderData: keepPreviousData });
  const cards = list.data?.pages.flatMap((page) => page.items) ?? [];
  const filtered = query !== '' || tagId !== '' || archived;

  let body: ReactNode;
  if (list.isPending) body = <InlineLoading label={m.cards_loading()} />;
  else if (list.isError) body = <InlineError message={m.cards_load_failed()} onRetry={() => void list.refetch()} />;
  else if (cards.length === 0) body = <EmptyState filtered={filtered} />;
  else {
    body = (
      <>
        <ul
          // A long word or URL on a card breaks anywhere (its paragraphs too, over their own break-words), so it
          // never pushes the card's actions off a phone's screen.
          className={`space-y-3 transition-opacity [overflow-wrap:anywhere] [&_p]:[overflow-wrap:anywhere] ${list.isPlaceholderData ? 'opacity-60' : ''}`}
          aria-labelledby="cards-heading"
        >
          {cards.map((card) => (
            <CardItem key={card.id} card={card} />
          ))}
        </ul>
        {list.hasNextPage && (
          <div className="mt-6 flex justify-center">
            <Button variant="secondary" pending={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
              {m.cards_load_more()}
            </Button>
          </div>
        )}
      </>
    );
  }

  return (
    <section aria-labelledby="cards-heading">
      <div className="mb-4 flex items-baseline justify-between">
        <h2 id="cards-heading" className="text-lg font-semibold text-slate-900">
          {archived ? m.cards_archived_heading() : m.cards_heading()}
        </h2>
        {list.isFetching && !list.isPending && !list.isFetchingNextPage && (
          <span className="text-xs text-slate-500" role="status">
            {m.cards_refreshing()}
          </span>
        )}
      </div>
      <div className="mb-4 flex flex-wrap items-center gap-3">
        <input
          type="search"
          value={search}
          maxLength={SEARCH_QUERY_MAX_LENGTH}
          onChange={(event) => setSearch(event.target.value)}
          placeholder={m.cards_search_placeholder()}
          aria-label={m.cards_search()}
          className="min-w-48 flex-1 rounded-lg border-0 bg-white px-3.5 py-2 text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset placeholder:text-slate-500 focus:ring-2 focus:ring-brand-600"
        />
        <TagFilter value={tagId} onChange={setTagId} />
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            checked={archived}
            onChange={(event) => setArchived(event.target.checked)}
            className="size-4 rounded border-slate-300 text-brand-600 focus:ring-brand-600"
          />
          {m.cards_show_archived()}
        </label>
      </div>
      {body}
    </section>
  );
}
