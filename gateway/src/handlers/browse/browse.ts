// The Browse procedures (browse.*): thin adapters over the cards service's BrowseService, with the JSON shapes the
// web app reads (dates as ISO strings).
import {
  type BrowseSort,
  browseInput,
  bulkEditInput,
  countInput,
  deleteSavedSearchInput,
  duplicatesInput,
  saveSearchInput,
  undoBulkEditInput,
} from '@engram/contracts/browse';
import type { CardType } from '@engram/contracts/learning';
import type { BrowseCard as BrowseCardMessage, SavedSearch } from '@engram/proto/cards/v1/browse';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import type { Tag } from '../cards/card-json.js';

export {
  browseInput,
  bulkEditInput,
  countInput,
  deleteSavedSearchInput,
  duplicatesInput,
  saveSearchInput,
  undoBulkEditInput,
};

/** A row of the Browse table. */
export interface BrowseCard {
  id: string;
  /** What Anki's tools call it by (a note id): the `nid:` search. */
  number: number;
  type: CardType;
  front: string;
  back: string;
  tags: Tag[];
  archived: boolean;
  createdAt: string;
  /** The soonest due time of its learned review items; null while all are new. */
  due: string | null;
  intervalDays: number;
  reps: number;
  lapses: number;
  state: 'new' | 'learning' | 'review' | 'relearning';
}

export interface BrowsePage {
  items: BrowseCard[];
  nextCursor: string | null;
}

const browseCardJson = (card: BrowseCardMessage): BrowseCard => ({
  id: card.id,
  number: card.number,
  type: (card.type || 'basic') as CardType,
  front: card.front,
  back: card.back,
  tags: card.tags.map(({ id, name }) => ({ id, name })),
  archived: card.archived,
  createdAt: (card.createdAt ?? new Date(0)).toISOString(),
  due: card.due ? card.due.toISOString() : null,
  intervalDays: card.intervalDays,
  reps: card.reps,
  lapses: card.lapses,
  state: (card.state || 'new') as BrowseCard['state'],
});

export async function browse({ ctx, input }: HandlerArgs<z.output<typeof browseInput>>): Promise<BrowsePage> {
  const page = await asUser(ctx).browse.browseCards({
    query: input.query,
    sort: input.sort satisfies BrowseSort,
    ascending: input.ascending,
    pageSize: input.pageSize,
    cursor: input.cursor ?? '',
  });
  return { items: page.items.map(browseCardJson), nextCursor: page.nextCursor || null };
}

export async function count({ ctx, input }: HandlerArgs<z.output<typeof countInput>>): Promise<{ count: number }> {
  return asUser(ctx).browse.countCards({ query: input.query });
}

export async function bulkEdit({
  ctx,
  input,
}: HandlerArgs<z.output<typeof bulkEditInput>>): Promise<{ undoId: string | null; changed: number }> {
  const answer = await asUser(ctx).browse.bulkEdit(
    {
      action: input.action,
      cardIds: input.cardIds ?? [],
      query: input.query ?? '',
      tagIds: input.tagIds ?? [],
      dueFromDays: input.dueFromDays ?? 0,
      dueToDays: input.dueToDays ?? input.dueFromDays ?? 0,
      presetId: input.presetId ?? '',
    },
    // A change of thousands of cards takes longer than a page.
    { timeoutMs: 60_000 },
  );
  return { undoId: answer.undoId || null, changed: answer.changed };
}

export async function undo({
  ctx,
  input,
}: HandlerArgs<z.output<typeof undoBulkEditInput>>): Promise<{ restored: number }> {
  return asUser(ctx).browse.undoBulkEdit({ undoId: input.undoId }, { timeoutMs: 60_000 });
}

export async function savedSearches({ ctx }: HandlerArgs): Promise<{ items: SavedSearch[] }> {
  return asUser(ctx).browse.listSavedSearches({});
}

export async function saveSearch({ ctx, input }: HandlerArgs<z.output<typeof saveSearchInput>>): Promise<SavedSearch> {
  const { search } = await asUser(ctx).browse.saveSearch(input);
  if (!search) throw new Error('the cards service saved no search');
  return search;
}

export async function deleteSavedSearch({
  ctx,
  input,
}: HandlerArgs<z.output<typeof deleteSavedSearchInput>>): Promise<{ deleted: true }> {
  await asUser(ctx).browse.deleteSavedSearch(input);
  return { deleted: true };
}

export async function duplicates({
  ctx,
  input,
}: HandlerArgs<z.output<typeof duplicatesInput>>): Promise<{ groups: { key: string; cards: BrowseCard[] }[] }> {
  const { groups } = await asUser(ctx).browse.findDuplicates({ limit: input.limit });
  return { groups: groups.map((group) => ({ key: group.key, cards: group.cards.map(browseCardJson) })) };
}
