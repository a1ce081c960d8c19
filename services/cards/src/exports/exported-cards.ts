// The learner's cards as an export reads them: a page at a time through a cursor, each with its tag names, its
// review items and its reviews that were not undone, and the files its text shows; so an export of 40,000 cards
// holds one page in memory, never the collection. Plain SQL, one query: the same read through Prisma's includes
// took five queries a page and most of an export's time. A note comes with its note type (the learner's note types
// are read once, in the same snapshot).
import type { EngramExportCard, EngramExportNoteType } from '@engram/anki/from-engram';
import type { AnkiOriginal } from '@engram/anki/to-engram';
import type { CardType } from '@engram/contracts/learning';
import { isStockNoteTypeId, stockNoteType } from '@engram/contracts/note-types';
import type pg from 'pg';
import { shapeOfRow } from '../domain/note-types.js';

const PAGE = 500;

/** A time column as ms since the epoch (null stays null). */
const ms = (column: string) => `(date_part('epoch', ${column}) * 1000)::int8`;

export interface ExportedFile {
  id: string;
  name: string;
  objectKey: string;
}

export interface ExportedCard extends EngramExportCard {
  deckId: string | null;
  files: ExportedFile[];
}

/**
 * Which of the owner's ($1) cards an export takes: all, or those with one of the tags in $2 (none: all), and, when
 * $3 names cards (a selection of the Browse screen), only those.
 */
const EXPORTED = `c.owner_id = $1
  AND (cardinality($2::uuid[]) = 0
    OR EXISTS (SELECT 1 FROM card_tags ct WHERE ct.card_id = c.id AND ct.tag_id = ANY($2::uuid[])))
  AND (cardinality($3::uuid[]) = 0 OR c.id = ANY($3::uuid[]))`;

/** The cards an export takes: with one of `tagIds` (none: any), and among `cardIds` (none: any). */
export interface ExportScope {
  tagIds: string[];
  cardIds: string[];
}

/** How many cards the export of `ownerId`'s cards in `scope` takes. */
export async function exportedCount(pool: pg.Pool, ownerId: string, scope: ExportScope): Promise<number> {
  const { rows } = await pool.query<{ count: number }>(`SELECT count(*)::int AS count FROM cards c WHERE ${EXPORTED}`, [
    ownerId,
    scope.tagIds,
    scope.cardIds,
  ]);
  return rows[0]?.count ?? 0;
}

/**
 * The exported cards in id order, each with its tag names, items, files and the reviews of its items the learner
 * did not undo (oldest first), in one query read through a cursor. Each part is gathered for all the exported
 * cards at once (a pass over its table, sorted by card) and merged with the cards in id order: one subquery per
 * card and part, as it was, read the reviews card by card all over their table and took twice as long. Items and
 * reviews come as JSON arrays of their values, times in ms since the epoch: a third of the text that objects with
 * their keys and ISO times were, for PostgreSQL to write and the export to read.
 */
const CARDS_SQL = `
WITH scoped AS MATERIALIZED (SELECT c.id FROM cards c WHERE ${EXPORTED})
SELECT c.id, c.type::text AS type, c.front, c.back, c.archived, c.created_at, c.updated_at, c.external_id, c.deck_id,
  c.note_type_id, c.fields, COALESCE(t.tags, '{}') AS tags, t.anki_deck, COALESCE(i.items, '[]') AS items,
  COALESCE(f.files, '[]') AS files, COALESCE(r.reviews, '[]') AS reviews
FROM cards c
LEFT JOIN (
  SELECT ct.card_id, array_agg(t.name) AS tags, min(t.name) FILTER (WHERE t.anki_deck) AS anki_deck
  FROM card_tags ct JOIN tags t ON t.id = ct.tag_id
  WHERE ct.card_id IN (SELECT id FROM scoped) GROUP BY ct.card_id
) t ON t.card_id = c.id
LEFT JOIN (
  SELECT i.card_id, json_agg(json_build_array(i.ordinal, i.state, ${ms('i.due')}, i.stability, i.difficulty, i.reps,
    i.lapses, ${ms('i.last_review')}, i.scheduled_days) ORDER BY i.ordinal) AS items
  FROM review_items i
  WHERE i.card_id IN (SELECT id FROM scoped) GROUP BY i.card_id
) i ON i.card_id = c.id
LEFT JOIN (
  SELECT cm.card_id, json_agg(json_build_object('id', m.id, 'name', m.name, 'objectKey', m.object_key)) AS files
  FROM card_media cm JOIN media m ON m.id = cm.media_id
  WHERE cm.card_id IN (SELECT id FROM scoped) GROUP BY cm.card_id
) f ON f.card_id = c.id
LEFT JOIN (
  SELECT l.card_id, json_agg(json_build_array(l.id, i.ordinal, ${ms('l.reviewed_at')}, l.rating, l.duration_ms,
    l.state_before, l.state_after, l.scheduled_days, l.elapsed_days, l.last_elapsed_days, ${ms('l.due_after')})
    ORDER BY l.reviewed_at, l.seq) AS reviews
  FROM review_logs l JOIN review_items i ON i.id = l.item_id
  WHERE l.card_id IN (SELECT id FROM scoped) AND l.undone_at IS NULL GROUP BY l.card_id
) r ON r.card_id = c.id
WHERE c.id IN (SELECT id FROM scoped)
ORDER BY c.id`;

/** An item as CARDS_SQL gives it: ordinal, state, due, stability, difficulty, reps, lapses, last review, days. */
type ItemValues = [number, number, number, number, number, number, number, number | null, number];
/**
 * A review as CARDS_SQL gives it: id, its item's ordinal, when, rating, duration, state before and after,
 * scheduled days, elapsed days, the elapsed days before, when the item fell due after it.
 */
type ReviewValues = [string, number, number, number, number, number, number, number, number, number, number];

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
  note_type_id: string | null;
  fields: string[] | null;
  tags: string[];
  anki_deck: string | null;
  items: ItemValues[];
  files: ExportedFile[];
  reviews: ReviewValues[];
}

/**
 * The cards, a page at a time, from one snapshot of the learner's collection (a read-only repeatable-read
 * transaction holding the cursor). The plan is made for reading every row (cursor_tuple_fraction 1), without
 * the JIT compilation PostgreSQL would spend on the query's estimated cost.
 */
export async function* exportedCards(
  pool: pg.Pool,
  ownerId: string,
  scope: ExportScope,
): AsyncGenerator<ExportedCard[]> {
  const client = await pool.connect();
  let finished = false;
  let broken: Error | undefined;
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    // The reviews sorted by card (about 160 bytes each) stay in memory up to a collection of some 400,000.
    await client.query("SET LOCAL cursor_tuple_fraction = 1; SET LOCAL jit = off; SET LOCAL work_mem = '64MB'");
    const noteTypes = await noteTypesOf(client, ownerId);
    await client.query(`DECLARE exported_cards NO SCROLL CURSOR FOR ${CARDS_SQL}`, [
      ownerId,
      scope.tagIds,
      scope.cardIds,
    ]);
    // The next page is asked for before this one is handed out: PostgreSQL works it out while the export writes
    // this one (the connection runs its queries in turn, so a ROLLBACK after an early stop waits for it).
    const fetchPage = () => client.query<PageRow>(`FETCH ${PAGE} FROM exported_cards`);
    let next = fetchPage();
    for (;;) {
      const { rows } = await next;
      if (rows.length === 0) break;
      next = fetchPage();
      // Left unawaited when the export stops early: its failure is the ROLLBACK's to handle.
      next.catch(() => undefined);
      yield rows.map((row) => exportedCard(row, noteTypes));
    }
    await client.query('COMMIT');
    finished = true;
  } finally {
    // Left early (the export stopped) or failed: the connection goes back outside any transaction, or, when
    // even the ROLLBACK fails, is discarded (as kit's inTransaction does).
    if (!finished) {
      await client.query('ROLLBACK').catch((error: Error) => {
        broken = error;
      });
    }
    client.release(broken);
  }
}

interface NoteTypeRow {
  id: string;
  name: string;
  kind: string;
  fields: string[];
  templates: unknown;
  css: string;
  anki: AnkiOriginal | null;
}

/** The learner's own note types, by id. */
async function noteTypesOf(client: pg.ClientBase, ownerId: string): Promise<Map<string, EngramExportNoteType>> {
  const { rows } = await client.query<NoteTypeRow>(
    'SELECT id::text, name, kind, fields, templates, css, anki FROM note_types WHERE owner_id = $1',
    [ownerId],
  );
  return new Map(rows.map((row) => [row.id, { id: row.id, ...shapeOfRow(row), css: row.css, anki: row.anki }]));
}

/** A note's note type: a stock one, or one of the learner's own (undefined: not a note). */
function noteTypeOf(id: string | null, own: Map<string, EngramExportNoteType>): EngramExportNoteType | undefined {
  if (!id) return undefined;
  if (isStockNoteTypeId(id)) return { ...stockNoteType(id), id, css: '' };
  return own.get(id);
}

function exportedCard(card: PageRow, noteTypes: Map<string, EngramExportNoteType>): ExportedCard {
  const noteType = noteTypeOf(card.note_type_id, noteTypes);
  return {
    ...(noteType && { note: { type: noteType, fields: card.fields ?? [] } }),
    id: card.id,
    type: card.type,
    front: card.front,
    back: card.back,
    tags: card.tags.sort((a, b) => a.localeCompare(b)),
    ankiDeck: card.anki_deck,
    archived: card.archived,
    createdAt: card.created_at,
    updatedAt: card.updated_at,
    guid: card.external_id?.startsWith('anki:') ? card.external_id.slice('anki:'.length) : null,
    deckId: card.deck_id,
    items: card.items.map(([ordinal, state, due, stability, difficulty, reps, lapses, lastReview, scheduledDays]) => ({
      ordinal,
      state,
      due: new Date(due),
      stability,
      difficulty,
      reps,
      lapses,
      lastReview: lastReview === null ? null : new Date(lastReview),
      scheduledDays,
    })),
    reviews: card.reviews.map(
      ([
        id,
        ordinal,
        reviewedAt,
        rating,
        durationMs,
        stateBefore,
        stateAfter,
        scheduledDays,
        elapsedDays,
        lastElapsed,
        dueAfter,
      ]) => ({
        id,
        itemOrdinal: ordinal,
        reviewedAt: new Date(reviewedAt),
        rating,
        durationMs,
        stateBefore,
        stateAfter,
        scheduledDays,
        elapsedDays,
        lastElapsedDays: lastElapsed,
        dueAfter: new Date(dueAfter),
      }),
    ),
    files: card.files,
  };
}
