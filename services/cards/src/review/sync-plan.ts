// How a sync's accepted reviews change their items, worked out before anything is written (sync-writes.ts writes it
// all at once). An item's reviews done before its latest logged one are placed among its reviews in one replay
// (late-review.ts); the others follow, in the order they were done across the batch, each scheduled on its item's
// state as the reviews before it left it and spread over days as a review is (spread-review.ts), counting the
// batch's items where the reviews before it moved them.
import type { MemoryState } from '@engram/contracts/scheduler';
import { scheduleReview } from '@engram/contracts/scheduler';
import type pg from 'pg';
import { settingsOf } from '../learner/settings.js';
import { memoryOf } from './item-row.js';
import { replayLate, type ScheduledLog, type TimedReview } from './late-review.js';
import { spreadReview } from './spread-review.js';
import { histories, type SyncedItem } from './sync-read.js';
import type { PlannedItem } from './sync-writes.js';

/** A review the sync will record: its place in the request, the review at its time and its item (locked). */
export interface Accepted {
  index: number;
  review: TimedReview;
  row: SyncedItem;
}

export interface Plan {
  items: PlannedItem[];
  /** The item's state each accepted review answers, by its place in the request. */
  answers: Map<number, MemoryState>;
}

interface Planning {
  row: SyncedItem;
  settings: ReturnType<typeof settingsOf>;
  current: MemoryState;
  timeline: ScheduledLog[];
}

const isLate = ({ review, row }: Accepted) => row.last_review !== null && review.at < row.last_review;

/** The outcome of `accepted` (in the order they were done) for `ownerId`, inside the sync's transaction. */
export async function planSync(client: pg.PoolClient, ownerId: string, accepted: Accepted[]): Promise<Plan> {
  const items = new Map<string, Planning>();
  for (const { row } of accepted) {
    if (!items.has(row.id)) items.set(row.id, { row, settings: settingsOf(row), current: memoryOf(row), timeline: [] });
  }
  const answers = new Map<number, MemoryState>();
  const late = accepted.filter(isLate);
  const logged = await histories(client, [...new Set(late.map(({ row }) => row.id))]);
  for (const [itemId, history] of logged) {
    const item = items.get(itemId)!;
    const placed = late.filter(({ row }) => row.id === itemId);
    const replayed = replayLate(
      item.settings,
      item.row,
      history,
      placed.map(({ review }) => review),
    );
    item.current = replayed.after;
    item.timeline = replayed.timeline;
    for (const { index } of placed) answers.set(index, replayed.after);
  }
  for (const one of accepted) {
    if (isLate(one)) continue;
    const item = items.get(one.row.id)!;
    const { review } = one;
    const memory = item.current;
    const outcome = scheduleReview(item.settings, memory, review.rating, review.at);
    const moved = [...items.values()].map(({ row, current }) => ({ itemId: row.id, from: row.due, to: current.due }));
    const next = await spreadReview(
      client,
      { ownerId, itemId: item.row.id },
      item.settings,
      { memory, rating: review.rating, next: outcome.next, elapsedDays: outcome.log.elapsedDays },
      review.at,
      moved,
    );
    item.timeline.push({ before: memory, outcome, next, review });
    item.current = next;
    answers.set(one.index, next);
  }
  return { items: [...items.values()].map(({ row, timeline }) => ({ row, timeline })), answers };
}
