// A collection's rows as the reader yields them: the statements that read notes, cards and review logs, the
// rows in Anki's terms, and SQLite's failures as corruptDatabase. A note's text and a card's data are read
// only when they are within the note limit: octet_length reads a value's size from its record header, so
// a note of 300 MB is measured, never loaded.
import type { StatementSync } from 'node:sqlite';
import { AnkiPackageError } from './errors.ts';
import type { AnkiCard, AnkiFsrsState, AnkiNote, AnkiRevlog } from './types.ts';

export type Row = Record<string, unknown>;

/** A failure as the learner reads it: a refusal as it is, anything SQLite says as a damaged collection. */
export const corrupt = (error: unknown) =>
  error instanceof AnkiPackageError
    ? error
    : new AnkiPackageError('corruptDatabase', error instanceof Error ? error.message : String(error), {
        cause: error,
      });

/** Runs `read`, turning any SQLite failure into corruptDatabase. */
export function guarded<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw corrupt(error);
  }
}

/** The rows of `statement` one at a time, failing with corruptDatabase on a broken page. */
export function* rowsOf(statement: StatementSync, params: unknown[] = []): Generator<Row> {
  const rows = guarded(() => statement.iterate(...(params as never[])));
  while (true) {
    const next = guarded(() => rows.next());
    if (next.done) return;
    yield next.value as Row;
  }
}

/** Yields the rows of `statement` in arrays of `size`. */
export function* batches<T>(
  statement: StatementSync,
  params: unknown[],
  size: number,
  map: (row: Row) => T,
): Generator<T[]> {
  let batch: T[] = [];
  for (const row of rowsOf(statement, params)) {
    batch.push(map(row));
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

export const num = (value: unknown) => Number(value ?? 0);
const splitTags = (tags: unknown) =>
  String(tags ?? '')
    .split(/[\s\u3000]+/)
    .filter(Boolean);

/** Anki's FSRS memory state from a card's `data` JSON (`s`, `d`, `dr`, `lrt`), when it holds one. */
export function fsrsFromData(data: unknown): AnkiFsrsState | undefined {
  if (typeof data !== 'string' || !data.startsWith('{')) return undefined;
  try {
    const parsed = JSON.parse(data) as Record<string, unknown>;
    const s = parsed.s;
    const d = parsed.d;
    if (typeof s !== 'number' || typeof d !== 'number' || !(s > 0) || !(d >= 1 && d <= 10)) return undefined;
    return {
      stability: s,
      difficulty: d,
      desiredRetention: typeof parsed.dr === 'number' ? parsed.dr : undefined,
      lastReview: typeof parsed.lrt === 'number' ? parsed.lrt : undefined,
    };
  } catch {
    return undefined;
  }
}

const textBytes = (column: string) => `ifnull(octet_length(${column}), 0)`;
const NOTE_BYTES = `${textBytes('guid')} + ${textBytes('tags')} + ${textBytes('flds')}`;

/** Notes by id; a note's text only when it is at most ?1 bytes (`bytes` says how much it is either way). */
export const NOTES_SQL = `SELECT id, mid, mod, ${NOTE_BYTES} AS bytes,
  CASE WHEN ${NOTE_BYTES} <= ?1 THEN guid END AS guid,
  CASE WHEN ${NOTE_BYTES} <= ?1 THEN tags END AS tags,
  CASE WHEN ${NOTE_BYTES} <= ?1 THEN flds END AS flds
FROM notes`;

/** A card's columns; its `data` only when it is at most ?1 bytes. */
export const CARD_COLUMNS = `id, nid, did, odid, ord, queue, type, due, odue, ivl, factor, reps, lapses,
  ${textBytes('data')} AS dataBytes, CASE WHEN ${textBytes('data')} <= ?1 THEN data END AS data`;
export const REVLOG_COLUMNS = 'id, cid, ease, ivl, lastIvl, factor, time, type';

/** A note as read: its text, or when it is over the limit, the mark that it was not read. */
export function noteOf(row: Row, maxBytes: number): AnkiNote {
  const tooLarge = num(row.bytes) > maxBytes;
  return {
    id: num(row.id),
    guid: String(row.guid ?? ''),
    noteTypeId: num(row.mid),
    fields: tooLarge ? [] : String(row.flds ?? '').split('\x1f'),
    tags: splitTags(row.tags),
    modified: num(row.mod),
    ...(tooLarge && { tooLarge }),
  };
}

export const cardOf = (row: Row): AnkiCard => ({
  id: num(row.id),
  noteId: num(row.nid),
  ordinal: num(row.ord),
  // A card in a filtered deck belongs to its original deck.
  deckId: num(row.odid) || num(row.did),
  queue: num(row.queue),
  type: num(row.type),
  due: num(row.odid) ? num(row.odue) : num(row.due),
  interval: num(row.ivl),
  easeFactor: num(row.factor),
  reps: num(row.reps),
  lapses: num(row.lapses),
  fsrs: fsrsFromData(row.data),
});

export const revlogOf = (row: Row): AnkiRevlog => ({
  id: num(row.id),
  cardId: num(row.cid),
  ease: num(row.ease),
  interval: num(row.ivl),
  lastInterval: num(row.lastIvl),
  factor: num(row.factor),
  timeMs: num(row.time),
  type: num(row.type),
});
