// The learner's cards as an export reads them: a page at a time through a cursor, each with its tag names, its
// review items and its reviews that were not undone, and the files its text shows; so an export of 40,000 cards
// holds one page in memory, never the collection. Plain SQL, one query: the same read through Prisma's includes
// took five queries a page and most of an export's time. A note comes with its note type (the learner's note types
// are read once, in the same snapshot).
import { type EngramExportCard, type EngramExportNoteType, MAX_REVIEW_TIME_MS } from '@engram/anki/from-engram';
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
 * Which of the owner's cards an export takes: all, or those with one of the tags (none: all), and, when cards are
 * named (a selection of the Browse screen), only those; each given as SQL (a parameter, or a setting).
 */
const exportedWhere = (owner: string, tags: string, cards: string) => `c.owner_id = ${owner}
  AND (cardinality(${tags}) = 0
    OR EXISTS (SELECT 1 FROM card_tags ct WHERE ct.card_id = c.id AND ct.tag_id = ANY(${tags})))
  AND (cardinality(${cards}) = 0 OR c.id = ANY(${cards}))`;

/** The owner ($1), tags ($2) and cards ($3) of an export as parameters. */
const EXPORTED = exportedWhere('$1', '$2::uuid[]', '$3::uuid[]');

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

/** A time column as ms since the epoch, a float8 the driver reads as a number (exact: extract gives a numeric). */
const msNumber = (column: string) => `(extract(epoch FROM ${column}) * 1000)::float8`;

/**
 * The exported cards in the order they were made (created_at, then id), each with its tag names, items, files and
 * (`withReviews`) the reviews of its items the learner did not undo (oldest first), in one query read through a
 * cursor. The cards come from the owner's (owner_id, created_at, id) index read backwards, and each part from its
 * own index by card (LATERAL): rows flow from the first page on, where gathering each part for all the cards at once
 * and merging them by card id sorted every part first (0.4 s of a 40,000-card export before its first row, and more
 * of PostgreSQL's time: 0.66 s against 0.47). In that order an Anki export's note ids (times in ms) only grow.
 * Items and reviews come as JSON arrays of their values, times in ms since the epoch: a third of the text that
 * objects with their keys and ISO times were, for PostgreSQL to write and the export to read.
 */
const cardsSql = (withReviews: boolean) => `
SELECT c.id, c.type::text AS type, c.front, c.back, c.archived, ${msNumber('c.created_at')} AS created_at,
  ${msNumber('c.updated_at')} AS updated_at, c.external_id, c.deck_id, c.note_type_id, c.fields,
  COALESCE(t.tags, '{}') AS tags, t.anki_deck, COALESCE(i.items, '[]') AS items,
  COALESCE(f.files, '[]') AS files${withReviews ? ", COALESCE(r.reviews, '[]') AS reviews" : ''}
FROM cards c
LEFT JOIN LATERAL (
  SELECT array_agg(t.name) AS tags, min(t.name) FILTER (WHERE t.anki_deck) AS anki_deck
  FROM card_tags ct JOIN tags t ON t.id = ct.tag_id
  WHERE ct.card_id = c.id
) t ON true
LEFT JOIN LATERAL (
  SELECT json_agg(json_build_array(i.ordinal, i.state, ${ms('i.due')}, i.stability, i.difficulty, i.reps,
    i.lapses, ${ms('i.last_review')}, i.scheduled_days, i.number) ORDER BY i.ordinal) AS items
  FROM review_items i
  WHERE i.card_id = c.id
) i ON true
LEFT JOIN LATERAL (
  SELECT json_agg(json_build_object('id', m.id, 'name', m.name, 'objectKey', m.object_key)) AS files
  FROM card_media cm JOIN media m ON m.id = cm.media_id
  WHERE cm.card_id = c.id
) f ON true
${
  withReviews
    ? `LEFT JOIN LATERAL (
  SELECT json_agg(json_build_array(l.id, i.ordinal, ${ms('l.reviewed_at')}, l.rating, l.duration_ms,
    l.state_before, l.state_after, l.scheduled_days, l.elapsed_days, l.last_elapsed_days, ${ms('l.due_after')})
    ORDER BY l.reviewed_at, l.seq) AS reviews
  FROM review_items i JOIN review_logs l ON l.item_id = i.id
  WHERE i.card_id = c.id AND l.undone_at IS NULL
) r ON true
`
    : ''
}WHERE ${EXPORTED}
ORDER BY c.created_at, c.id`;

/**
 * An item as cardsSql gives it: ordinal, state, due, stability, difficulty, reps, lapses, last review, days, number.
 */
type ItemValues = [number, number, number, number, number, number, number, number | null, number, number];
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
  created_at: number;
  updated_at: number;
  external_id: string | null;
  deck_id: string | null;
  note_type_id: string | null;
  fields: string[] | null;
  tags: string[];
  anki_deck: string | null;
  items: ItemValues[];
  files: ExportedFile[];
  /** Absent when the cards are read without their reviews. */
  reviews?: ReviewValues[];
}

export interface ExportReadOptions {
  /** Each card with its reviews (else none: they are read apart, exportedReviews). */
  withReviews?: boolean;
  /**
   * Given the read's snapshot before the first page, for another connection to read the same collection in it
   * (exportedReviews); the read waits for it.
   */
  shareSnapshot?: (snapshot: string) => Promise<void>;
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
  { withReviews = true, shareSnapshot }: ExportReadOptions = {},
): AsyncGenerator<ExportedCard[]> {
  const client = await pool.connect();
  let finished = false;
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    // Should the planner sort the cards rather than read them from the index, the sort stays in memory. Each card's
    // tags, items and files are a few rows of an index: read straight from it, where a bitmap scan builds a bitmap
    // for each card first (a third of PostgreSQL's time for the 40,000 cards of bench/collection.ts).
    await client.query(
      "SET LOCAL cursor_tuple_fraction = 1; SET LOCAL jit = off; SET LOCAL work_mem = '64MB'; " +
        'SET LOCAL enable_bitmapscan = off',
    );
    if (shareSnapshot) {
      const { rows } = await client.query<{ snapshot: string }>('SELECT pg_export_snapshot() AS snapshot');
      await shareSnapshot(rows[0]!.snapshot);
    }
    const noteTypes = await noteTypesOf(client, ownerId);
    await client.query(`DECLARE exported_cards NO SCROLL CURSOR FOR ${cardsSql(withReviews)}`, [
      ownerId,
      scope.tagIds,
      scope.cardIds,
    ]);
    for await (const rows of fetchedAhead<PageRow>(client, 'exported_cards', PAGE)) {
      yield rows.map((row) => exportedCard(row, noteTypes));
    }
    await client.query('COMMIT');
    finished = true;
  } finally {
    await endRead(client, finished);
  }
}

/**
 * The rows of cursor `cursor`, `count` at a time. The next rows are asked for before these are handed out:
 * PostgreSQL works them out while the caller uses these (the connection runs its queries in turn, so a ROLLBACK
 * after an early stop waits for them).
 */
async function* fetchedAhead<Row extends pg.QueryResultRow>(
  client: pg.PoolClient,
  cursor: string,
  count: number,
): AsyncGenerator<Row[]> {
  const fetch = () => client.query<Row>(`FETCH ${count} FROM ${cursor}`);
  let next = fetch();
  for (;;) {
    const { rows } = await next;
    if (rows.length === 0) return;
    next = fetch();
    // Left unawaited when the caller stops early: its failure is the ROLLBACK's to handle.
    next.catch(() => undefined);
    yield rows;
  }
}

/**
 * Hands a read's connection back. Left early (the export stopped) or failed (`finished` false): it goes back
 * outside any transaction, or, when even the ROLLBACK fails, is discarded (as kit's inTransaction does).
 */
async function endRead(client: pg.PoolClient, finished: boolean): Promise<void> {
  let broken: Error | undefined;
  if (!finished) {
    await client.query('ROLLBACK').catch((error: Error) => {
      broken = error;
    });
  }
  client.release(broken);
}

/** Rows of reviewsSql fetched at once: each holds REVIEWS_A_ROW reviews. */
const REVIEW_ROWS = 20;
const REVIEWS_A_ROW = 1000;

/**
 * The revlog rows (ExportReviewRow, @engram/anki/from-engram) of the reviews of the exported cards that the learner
 * did not undo, read in the snapshot of an exportedCards read (`snapshot`) on a connection of their own, and handed
 * to `onRows` as the text of JSON arrays of them, REVIEWS_A_ROW at a time, in id order. PostgreSQL works out their
 * columns and writes each thousand as the text of one row (reviewsSql): nothing is parsed here (the Anki export
 * hands the text to SQLite), where a message and a string a review cost as much again as SQLite's insert. Returns
 * once the snapshot is taken (the cards' read may go on) with the read under way (`done`), which stops at the next
 * rows when `signal` aborts.
 */
export async function exportedReviews(
  pool: pg.Pool,
  ownerId: string,
  scope: ExportScope,
  options: { snapshot: string; signal: AbortSignal; onRows: (json: string) => void },
): Promise<{ done: Promise<void> }> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await client.query(`SET TRANSACTION SNAPSHOT ${client.escapeLiteral(options.snapshot)}`);
    // The sorts of the reviews (about 150 bytes each, twice) stay in memory up to a collection of some 400,000.
    await client.query("SET LOCAL jit = off; SET LOCAL work_mem = '64MB'");
    await client.query(`DECLARE exported_reviews NO SCROLL CURSOR FOR ${reviewsSql}`, [
      ownerId,
      scope.tagIds,
      scope.cardIds,
    ]);
  } catch (error) {
    await endRead(client, false);
    throw error;
  }
  const done = (async () => {
    let finished = false;
    try {
      for await (const rows of fetchedAhead<{ rows: string }>(client, 'exported_reviews', REVIEW_ROWS)) {
        options.signal.throwIfAborted();
        for (const row of rows) options.onRows(`[${row.rows}]`);
      }
      await client.query('COMMIT');
      finished = true;
    } finally {
      await endRead(client, finished);
    }
  })();
  return { done };
}

/**
 * The exported cards' reviews as revlog rows in id order (exportedReviews), REVIEWS_A_ROW to a row: ivl the
 * scheduled days, or for a (re)learning step minus its seconds; lastIvl the item's review before it's ivl; time the
 * duration capped at Anki's 60 s; type from the state before it; the id the review's time in ms, or the first free one
 * after the ids before it (the n-th review's id, in time order, is n + the largest "time − place" of the reviews up
 * to it). The rows @engram/anki's addCard makes from a card's reviews, for all of them at once, by PostgreSQL on a
 * connection of its own while the export writes the cards. Two sorts: by item for lastIvl, by time for the rest
 * (the running largest is over that same order, (ms, number, seq) being unique, so it needs no sort of its own, and
 * the groups come in it already). Every column is NOT NULL; format() would write a null as nothing, which SQLite
 * refuses as JSON, rather than drop the row.
 */
const reviewsSql = `
SELECT string_agg(format('[%s,%s,%s,%s,%s,%s,%s]', number, n + lowest, rating, ivl, last_ivl, time, type), ','
  ORDER BY n) AS rows
FROM (
  SELECT number, n, rating, ivl, last_ivl, time, type,
    max(ms - n) OVER (ORDER BY ms, number, seq ROWS UNBOUNDED PRECEDING) AS lowest
  FROM (
    SELECT number, ms, seq, rating, ivl, time, type,
      lag(ivl, 1, 0) OVER (PARTITION BY number ORDER BY ms, seq) AS last_ivl,
      row_number() OVER (ORDER BY ms, number, seq) AS n
    FROM (
      SELECT i.number, ${ms('l.reviewed_at')} AS ms, l.seq, l.rating,
        CASE WHEN l.scheduled_days > 0 THEN l.scheduled_days
          ELSE -greatest(0, round(extract(epoch FROM l.due_after - l.reviewed_at)))::int END AS ivl,
        CASE l.state_before WHEN 2 THEN 1 WHEN 3 THEN 2 ELSE 0 END AS type,
        greatest(0, least(${MAX_REVIEW_TIME_MS}, l.duration_ms)) AS time
      FROM review_logs l JOIN review_items i ON i.id = l.item_id
      -- Both by owner: each table is read through its owner's index, not whole.
      WHERE l.owner_id = $1 AND i.owner_id = $1 AND l.undone_at IS NULL
        AND l.card_id IN (SELECT c.id FROM cards c WHERE ${EXPORTED})
    ) logged
  ) numbered
) ordered
GROUP BY (n - 1) / ${REVIEWS_A_ROW}
ORDER BY (n - 1) / ${REVIEWS_A_ROW}`;

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
    createdAt: new Date(card.created_at),
    updatedAt: new Date(card.updated_at),
    guid: card.external_id?.startsWith('anki:') ? card.external_id.slice('anki:'.length) : null,
    deckId: card.deck_id,
    items: card.items.map(
      ([ordinal, state, due, stability, difficulty, reps, lapses, lastReview, scheduledDays, number]) => ({
        ordinal,
        number,
        state,
        due: new Date(due),
        stability,
        difficulty,
        reps,
        lapses,
        lastReview: lastReview === null ? null : new Date(lastReview),
        scheduledDays,
      }),
    ),
    reviews: (card.reviews ?? []).map(
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
