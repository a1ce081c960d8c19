// Progress from the review read model, counted in SQL: per member, over some decks, their reviews, the
// cards that reached the review state (by each review item's latest review), retention (recalled reviews
// of cards in review) and the streak of consecutive UTC days with a review up to today or yesterday.
import type { MemberProgress } from '@engram/proto/organizations/v1/organizations';
import type { Db } from '../db.js';

export type Target = { kind: string; value: number };

interface Counts {
  user_id: string;
  reviews: number;
  mature: number;
  recalled: number;
  last_reviewed_at: Date | null;
}

/** Whether a member's progress reaches an assignment's target. */
export function targetMet(progress: Omit<MemberProgress, 'targetMet'>, target: Target): boolean {
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
    db.$queryRaw<Counts[]>`
      SELECT user_id, count(*)::int AS reviews,
             count(*) FILTER (WHERE state_before = 'review')::int AS mature,
             count(*) FILTER (WHERE state_before = 'review' AND rating <> 'again')::int AS recalled,
             max(reviewed_at) AS last_reviewed_at
      FROM deck_reviews
      WHERE deck_id = ANY(${deckIds}::uuid[]) AND user_id = ANY(${userIds}::text[])
      GROUP BY user_id`,
    db.$queryRaw<{ user_id: string; learned: number }[]>`
      SELECT user_id, count(DISTINCT card_id)::int AS learned
      FROM (
        SELECT DISTINCT ON (user_id, item_id) user_id, card_id, state_after
        FROM deck_reviews
        WHERE deck_id = ANY(${deckIds}::uuid[]) AND user_id = ANY(${userIds}::text[])
        ORDER BY user_id, item_id, reviewed_at DESC
      ) latest
      WHERE state_after = 'review'
      GROUP BY user_id`,
    db.$queryRaw<{ user_id: string; streak: number }[]>`
      WITH days AS (
        SELECT DISTINCT user_id, (reviewed_at AT TIME ZONE 'UTC')::date AS day
        FROM deck_reviews
        WHERE deck_id = ANY(${deckIds}::uuid[]) AND user_id = ANY(${userIds}::text[])
      ), runs AS (
        SELECT user_id, day, day - (row_number() OVER (PARTITION BY user_id ORDER BY day))::int AS run
        FROM days
      )
      SELECT user_id, count(*)::int AS streak
      FROM runs
      GROUP BY user_id, run
      HAVING max(day) >= (now() AT TIME ZONE 'UTC')::date - 1`,
    db.deckCard.count({ where: { deckId: { in: deckIds }, withdrawn: false } }),
  ]);
  const countsOf = new Map(counts.map((row) => [row.user_id, row]));
  const learnedOf = new Map(learned.map((row) => [row.user_id, row.learned]));
  const streakOf = new Map(streaks.map((row) => [row.user_id, row.streak]));
  return userIds.map((userId) => {
    const count = countsOf.get(userId);
    const progress = {
      userId,
      reviews: count?.reviews ?? 0,
      cardsLearned: Math.min(learnedOf.get(userId) ?? 0, cardCount),
      cardCount,
      retention: count && count.mature > 0 ? count.recalled / count.mature : undefined,
      streakDays: streakOf.get(userId) ?? 0,
      lastReviewedAt: count?.last_reviewed_at ?? undefined,
    };
    return { ...progress, targetMet: target ? targetMet(progress, target) : false };
  });
}
