// Where a review's next due day lands once reviews are spread within fuzz (@engram/contracts/due-day): each
// candidate day with the learner's cards already due that day (the due index answers it), and the one chosen.
import { type ScheduledReview, spreadDays, spreadOver } from '@engram/contracts/due-day';
import type { MemoryState } from '@engram/contracts/scheduler';
import type pg from 'pg';
import type { LearnerSettings } from '../learner/settings.js';

// The learner's cards due within each day's bounds ($2 starts, $3 ends), but the item being reviewed ($4).
const LOADS = `
SELECT count(r.id)::int AS load
FROM unnest($2::timestamptz[], $3::timestamptz[]) WITH ORDINALITY AS w(start, finish, n)
LEFT JOIN review_items r
  ON r.owner_id = $1 AND NOT r.archived AND r.id <> $4 AND r.due >= w.start AND r.due < w.finish
GROUP BY w.n
ORDER BY w.n`;

/** An item of the learner's whose due moved in a transaction that has not written it yet (a sync's batch). */
export interface MovedItem {
  itemId: string;
  from: Date;
  to: Date;
}

/**
 * `review.next` (what the scheduler gave a review at `now`), spread within fuzz; `moved`, the learner's items (not
 * archived) whose due the caller has moved but not written yet, counted where they are going.
 */
export async function spreadReview(
  db: pg.Pool | pg.PoolClient,
  owner: { ownerId: string; itemId: string },
  settings: LearnerSettings,
  review: ScheduledReview,
  now: Date,
  moved: readonly MovedItem[] = [],
): Promise<MemoryState> {
  const days = spreadDays(settings, review, now);
  if (!days) return review.next;
  const { rows } = await db.query<{ load: number }>(LOADS, [
    owner.ownerId,
    days.map((day) => day.start),
    days.map((day) => day.end),
    owner.itemId,
  ]);
  const within = (due: Date, n: number) => due >= days[n]!.start && due < days[n]!.end;
  const others = moved.filter((item) => item.itemId !== owner.itemId);
  const loads = rows.map(
    ({ load }, n) =>
      load + others.filter(({ to }) => within(to, n)).length - others.filter(({ from }) => within(from, n)).length,
  );
  return spreadOver(settings, review, now, days, loads);
}
