// A list read a page at a time (an infinite query following nextCursor) in the states every such list shows:
// loading, failed with a way to retry, empty with its own words, or the items with "Load more" under them.
import type { ReactNode } from 'react';
import { LoadMore } from './load-more';
import { InlineError, InlineLoading } from './query-states';

/** What this needs of an infinite query's result whose pages each hold `items`. */
export interface PagedQuery<T> {
  data: { pages: { items: T[] }[] } | undefined;
  isPending: boolean;
  isError: boolean;
  refetch: () => Promise<unknown>;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

export function PagedList<T>({
  list,
  loadingLabel,
  failedMessage,
  empty,
  children,
}: {
  list: PagedQuery<T>;
  loadingLabel: string;
  failedMessage: string;
  /** The sentence shown when the list has no items. */
  empty: string;
  /** The loaded items of every page so far, drawn as the list. */
  children: (items: T[]) => ReactNode;
}) {
  if (list.isPending) return <InlineLoading label={loadingLabel} />;
  if (list.isError) return <InlineError message={failedMessage} onRetry={() => void list.refetch()} />;
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  if (items.length === 0) {
    return <p className="rounded-xl bg-white p-5 text-sm text-slate-600 ring-1 ring-slate-200">{empty}</p>;
  }
  return (
    <>
      {children(items)}
      <LoadMore list={list} />
    </>
  );
}
