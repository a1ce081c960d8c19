// The learner's cards as an export reads them: a page at a time (by id), each with its tag names, its review
// items and its reviews that were not undone, and the files its text shows; so an export of 40,000 cards holds
// one page in memory, never the collection. Plain SQL, two queries a page: the same read through Prisma's
// includes took five queries and most of an export's time.
import type { EngramExportCard } from '@engram/anki/from-engram';
import type { CardType } from '@engram/contracts/learning';
import type pg from 'pg';

const PAGE = 500;

export interface ExportedFile {
  id: string;
  name: string;
  objectKey: string;
}

export interface ExportedCard extends EngramExportCard {
  deckId: string | null;
  files: ExportedFile[];
}

/** Which of the owner's ($1) cards an export takes: all, or those with one of the tags in `tags` (none: all). */
const exported = (tags: string) => `c.owner_id = $1
  AND (cardinality(${tags}::uuid[]) = 0
    OR EXISTS (SELECT 1 FROM card_tags ct WHERE ct.card_id = c.id AND ct.tag_id = ANY(${tags}::uuid[])))`;

/** How many cards the export of `ownerId`'s cards (with one of `tagIds`, or all) takes. */
export async function exportedCount(pool: pg.Pool, ownerId: string, tagIds: string[]): Promise<number> {
  const { rows } = await pool.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM cards c WHERE ${exported('$2')}`,
    [ownerId, tagIds],
  );
  return rows[0]?.count ?? 0;
}

/** One page of cards after `after` (by id), each with its tag names, items and files, in one query. */
const PAGE_SQL = `
SELECT c.id, c.type::text AS type, c.front, c.back, c.archived, c.created_at, c.updated_at, c.external_id, c.deck_id,
  COALESCE((SELECT array_agg(t.name) FROM card_tags ct JOIN tags t ON t.id = ct.tag_id WHERE ct.card_id = c.id),
    '{}') AS tags,
  COALESCE((SELECT json_agg(json_build_object('id', i.id, 'ordinal', i.ordinal, 'state', i.state, 'due', i.due,
      'stability', i.stability, 'difficulty', i.difficulty, 'reps', i.reps, 'lapses', i.lapses,
      'lastReview', i.last_review, 'scheduledDays', i.scheduled_days) ORDER BY i.ordinal)
    FROM review_items i WHERE i.card_id = c.id), '[]') AS items,
  COALESCE((SELECT json_agg(json_build_object('id', m.id, 'name', m.name, 'objectKey', m.object_key))
    FROM card_media cm JOIN media m ON m.id = cm.media_id WHERE cm.card_id = c.id), '[]') AS files
FROM cards c
WHERE ${exported('$3')} AND c.id > $2::uuid
ORDER BY c.id
LIMIT ${PAGE}`;

/** The reviews of these items the learner did not undo, oldest first: by item, review_logs' index. */
const REVIEWS_SQL = `
SELECT id, card_id, item_id, reviewed_at, rating, duration_ms, state_before, state_after, scheduled_days,
  elapsed_days, last_elapsed_days, due_after
FROM review_logs WHERE item_id = ANY($1::uuid[]) AND undone_at IS NULL
ORDER BY reviewed_at, seq`;

interface PageRow {
  id: string;
  type: CardType;
  front: string;
  back: string;
  archived: boolean;
  created_at: Date;
  updated_at: Date;
  external_id: string | null;
  deck_id: string | null;
  tags: string[];
  items: {
    id: string;
    ordinal: number;
    state: number;
    due: string;
    stability: number;
    difficulty: number;
    reps: number;
    lapses: number;
    lastReview: string | null;
    scheduledDays: number;
  }[];
  files: ExportedFile[];
}

interface ReviewRow {
  id: string;
  card_id: string;
  item_id: string;
  reviewed_at: Date;
  rating: number;
  duration_ms: number;
  state_before: number;
  state_after: number;
  scheduled_days: number;
  elapsed_days: number;
  last_elapsed_days: number;
  due_after: Date;
}

const FIRST_ID = '00000000-0000-0000-0000-000000000000';

/** The cards, a page at a time: two queries a page, whatever the page holds. */
export async function* exportedCards(pool: pg.Pool, ownerId: string, tagIds: string[]): AsyncGenerator<ExportedCard[]> {
  let after = FIRST_ID;
  for (;;) {
    const { rows: cards } = await pool.query<PageRow>(PAGE_SQL, [ownerId, after, tagIds]);
    if (cards.length === 0) return;
    after = cards.at(-1)?.id ?? after;
    const itemIds = cards.flatMap((card) => card.items.map((item) => item.id));
    const { rows: reviews } = await pool.query<ReviewRow>(REVIEWS_SQL, [itemIds]);
    const reviewsOf = Map.groupBy(reviews, (review) => review.card_id);
    yield cards.map((card) => {
      const ordinalOf = new Map(card.items.map((item) => [item.id, item.ordinal]));
      return {
        id: card.id,
        type: card.type,
        front: card.front,
        back: card.back,
        tags: card.tags.sort((a, b) => a.localeCompare(b)),
        archived: card.archived,
        createdAt: card.created_at,
        updatedAt: card.updated_at,
        guid: card.external_id?.startsWith('anki:') ? card.external_id.slice('anki:'.length) : null,
        deckId: card.deck_id,
        items: card.items.map((item) => ({
          ordinal: item.ordinal,
          state: item.state,
          due: new Date(item.due),
          stability: item.stability,
          difficulty: item.difficulty,
          reps: item.reps,
          lapses: item.lapses,
          lastReview: item.lastReview ? new Date(item.lastReview) : null,
          scheduledDays: item.scheduledDays,
        })),
        reviews: (reviewsOf.get(card.id) ?? []).flatMap((review) => {
          const itemOrdinal = ordinalOf.get(review.item_id);
          if (itemOrdinal === undefined) return [];
          return [
            {
              id: review.id,
              itemOrdinal,
              reviewedAt: review.reviewed_at,
              rating: review.rating,
              durationMs: review.duration_ms,
              stateBefore: review.state_before,
              stateAfter: review.state_after,
              scheduledDays: review.scheduled_days,
              elapsedDays: review.elapsed_days,
              lastElapsedDays: review.last_elapsed_days,
              dueAfter: review.due_after,
            },
          ];
        }),
        files: card.files,
      };
    });
  }
}
