// The user's cards, newest first, ten at a time with a "Load more" control that follows nextCursor.
import { useInfiniteQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { Card } from '../lib/cards';
import { cardsListOptions } from '../lib/cards';
import { getLocale, m } from '../lib/i18n';
import { Button } from './button';
import { Spinner } from './spinner';

function CardItem({ card }: { card: Card }) {
  const dateFormat = new Intl.DateTimeFormat(getLocale(), { dateStyle: 'medium' });
  return (
    <li className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200 transition hover:ring-brand-200">
      <p className="font-medium break-words whitespace-pre-wrap text-slate-900">{card.front}</p>
      <p className="mt-2 border-t border-dashed border-slate-200 pt-2 text-sm break-words whitespace-pre-wrap text-slate-600">
        {card.back}
      </p>
      <p className="mt-3 text-xs text-slate-400">
        {m.cards_added_on()} <time dateTime={card.createdAt}>{dateFormat.format(new Date(card.createdAt))}</time>
      </p>
    </li>
  );
}

function EmptyState() {
  return (
    <div className="rounded-xl border-2 border-dashed border-slate-200 bg-white/60 px-6 py-14 text-center">
      <p className="font-medium text-slate-900">{m.cards_empty_title()}</p>
      <p className="mt-1 text-sm text-slate-500">{m.cards_empty_text()}</p>
    </div>
  );
}

export function CardList() {
  const query = useInfiniteQuery(cardsListOptions);
  const cards = query.data?.pages.flatMap((page) => page.items) ?? [];

  let body: ReactNode;
  if (query.isPending) {
    body = (
      <div className="flex items-center gap-2 py-10 text-sm text-slate-500" role="status">
        <Spinner className="size-4 text-brand-600" /> {m.cards_loading()}
      </div>
    );
  } else if (query.isError) {
    body = (
      <div className="rounded-xl bg-red-50 px-5 py-4 text-sm text-red-700 ring-1 ring-red-200" role="alert">
        <p className="font-medium">{m.cards_load_failed()}</p>
        <Button variant="secondary" className="mt-3" onClick={() => void query.refetch()}>
          {m.cards_try_again()}
        </Button>
      </div>
    );
  } else if (cards.length === 0) {
    body = <EmptyState />;
  } else {
    body = (
      <>
        <ul className="space-y-3" aria-labelledby="cards-heading">
          {cards.map((card) => (
            <CardItem key={card.id} card={card} />
          ))}
        </ul>
        {query.hasNextPage && (
          <div className="mt-6 flex justify-center">
            <Button variant="secondary" pending={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
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
          {m.cards_heading()}
        </h2>
        {query.isFetching && !query.isPending && !query.isFetchingNextPage && (
          <span className="text-xs text-slate-400" role="status">
            {m.cards_refreshing()}
          </span>
        )}
      </div>
      {body}
    </section>
  );
}
