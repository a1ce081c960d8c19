// "Load more" under a list read a page at a time (an infinite query following nextCursor); nothing once
// the last page is in.
import { m } from '../lib/i18n';
import { Button } from './button';

export function LoadMore({
  list,
}: {
  list: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => Promise<unknown> };
}) {
  if (!list.hasNextPage) return null;
  return (
    <div className="mt-4 flex justify-center">
      <Button variant="secondary" pending={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
        {m.list_load_more()}
      </Button>
    </div>
  );
}
