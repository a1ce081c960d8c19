// The practice screens' loads (docs/product.md#routes): due items, optionally filtered by tags, and the user's tags
// fifty at a time. Shared by the route loaders, which start them early, and the screens.
import type { inferOutput } from '@trpc/tanstack-react-query';
import { trpc } from '../../lib/trpc';

export type DueItem = inferOutput<typeof trpc.cards.listDue>['items'][number];

/** Absent tags mean every due item; an empty list is never sent. */
export const dueOptions = (tagIds?: readonly string[]) =>
  trpc.cards.listDue.queryOptions(tagIds && tagIds.length > 0 ? { tagIds: [...tagIds] } : {});

export { tagsOptions } from '../../entities/cards/queries';

export const streakOptions = trpc.cards.streak.queryOptions();
