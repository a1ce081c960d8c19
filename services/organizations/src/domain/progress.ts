// Progress from the review read model, counted in SQL: per member, over some decks, their reviews, the
// cards that reached the review state (by each review item's latest review), retention (recalled reviews
// of cards in review) and the streak of consecutive UTC days with a review up to today or yesterday.
import type { MemberProgress } from '@engram/proto/organizations/v1/organizations';
import type { Db } from '../db.js';

export type Target = { kind: string; value: number };

interface Counts {
  key: string;
  reviews: number;
  mature: number;
  recalled: number;
  last_reviewed_at: Date | null;
}

/** Whether a member's progress reaches an assignment's target. */
export function targetMet(progress: Progress, target: Target): boolean {
  if (target.kind === 'cards_learned') return progress.cardsLearned >= target.value;
  return progress.retention !== undefined && progress.retention >= target.value;
}

export async function progressOf(
  db: Db,
  deckIds: string[],
  userIds: string[],
  target?: Target,
): Promise<MemberProgress[]> {
  if (userIds.length === 0) return [];
  const [counts, learned, streaks, cardCount] = await Promise.all([
    countsBy(db, 'user_id', deckIds, userIds),
    learnedBy(db, 'user_id', deckIds, userIds),
    streaksBy(db, 'user_id', deckIds, userIds),
    db.deckCard.count({ where: { deckId: { in: deckIds }, withdrawn: false } }),
  ]);
  return userIds.map((userId) => withTarget(progressFrom(userId, userId, counts, learned, streaks, cardCount), target));
}

/**
 * One member's progress on each of several decks (their assignments on the dashboard), in the same four
 * queries whatever the number of decks.
 */
export async function progressPerDeck(db: Db, deckIds: string[], userId: string): Promise<Map<string, Progress>> {
  if (deckIds.length === 0) return new Map();
  const [counts, learned, streaks, cards] = await Promise.all([
    countsBy(db, 'deck_id', deckIds, [userId]),
    learnedBy(db, 'deck_id', deckIds, [userId]),
    streaksBy(db, 'deck_id', deckIds, [userId]),
    db.deckCard.groupBy({ by: ['deckId'], where: { deckId: { in: deckIds }, withdrawn: false }, _count: true }),
  ]);
  const cardCount = new Map(cards.map((row) => [row.deckId, row._count]));
  return new Map(
    deckIds.map((deckId) => [
      deckId,
      progressFrom(userId, deckId, counts, learned, streaks, cardCount.get(deckId) ?? 0),
    ]),
  );
}

export type Progress = Omit<MemberProgress, 'targetMet'>;

export function withTarget(progress: Progress, target?: Target): MemberProgress {
  return { ...progress, targetMet: target ? targetMet(progress, target) : false };
}

/** The column progress is grouped by: per member (one set of decks), or per deck (one member). */
export type Key = 'user_id' | 'deck_id';

function progressFrom(
  userId: string,
  key: string,
  counts: Map<string, Counts>,
  learned: Map<string, number>,
  streaks: Map<string, number>,
  cardCount: number,
): Progress {
  const count = counts.get(key);
  return {
    userId,
    reviews: count?.reviews ?? 0,
    cardsLearned: Math.min(learned.get(key) ?? 0, cardCount),
    cardCount,
    retention: count && count.mature > 0 ? count.recalled / count.mature : undefined,
    streakDays: streaks.get(key) ?? 0,
    lastReviewedAt: count?.last_reviewed_at ?? undefined,
  };
}

async function countsBy(db: Db, key: Key, deckIds: string[], userIds: string[]): Promise<Map<string, Counts>> {
  const rows = await db.$queryRawUnsafe<Counts[]>(
    `SELECT ${key} AS key, count(*)::int AS reviews,
            count(*) FILTER (WHERE state_before = 'review')::int AS mature,
            count(*) FILTER (WHERE state_before = 'review' AND rating <> 'again')::int AS recalled,
            max(reviewed_at) AS last_reviewed_at
     FROM deck_reviews
     WHERE deck_id = ANY($1::uuid[]) AND user_id = ANY($2::text[])
     GROUP BY ${key}`,
    deckIds,
    userIds,
  );
  return new Map(rows.map((row) => [row.key, row]));
}

/**
 * The cards whose item's latest review left it in the review state. The latest review is the one with no
 * later review of its item (found through the item index), so no query sorts a member's whole history.
 */
export const LEARNED_BY = (key: Key) => `
SELECT r.${key} AS key, count(DISTINCT r.card_id)::int AS learned
  FROM deck_reviews r
 WHERE r.deck_id = ANY($1::uuid[]) AND r.user_id = ANY($2::text[]) AND r.state_after = 'review'
   AND NOT EXISTS (
     SELECT 1 FROM deck_reviews later
      WHERE later.user_id = r.user_id AND later.item_id = r.item_id
        AND (later.reviewed_at, later.review_id) > (r.reviewed_at, r.review_id))
 GROUP BY r.${key}`;

async function learnedBy(db: Db, key: Key, deckIds: string[], userIds: string[]): Promise<Map<string, number>> {
  const rows = await db.$queryRawUnsafe<{ key: string; learned: number }[]>(LEARNED_BY(key), deckIds, userIds);
  return new Map(rows.map((row) => [row.key, row.learned]));
}

async function streaksBy(db: Db, key: Key, deckIds: string[], userIds: string[]): Promise<Map<string, number>> {
  const rows = await db.$queryRawUnsafe<{ key: string; streak: number }[]>(
    `WITH days AS (
       SELECT DISTINCT ${key} AS key, (reviewed_at AT TIME ZONE 'UTC')::date AS day
       FROM deck_reviews
       WHERE deck_id = ANY($1::uuid[]) AND user_id = ANY($2::text[])
     ), runs AS (
       SELECT key, day, day - (row_number() OVER (PARTITION BY key ORDER BY day))::int AS run
       FROM days
     )
     SELECT key, count(*)::int AS streak
     FROM runs
     GROUP BY key, run
     HAVING max(day) >= (now() AT TIME ZONE 'UTC')::date - 1`,
    deckIds,
    userIds,
  );
  return new Map(rows.map((row) => [row.key, row.streak]));
}
