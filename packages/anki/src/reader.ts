// Reading an opened collection: note types, decks, notes, cards, review logs and media, for schema 11
// (note types and decks as JSON in `col`) and schema 18 (tables with protobuf configs) alike. Big tables
// are read with SQLite cursors and yielded in batches, so a collection of any size is never in memory at
// once; note types and decks are few and read whole.
import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { AnkiPackageError } from './errors.ts';
import { fieldNumber, fieldString, readMessage } from './protobuf.ts';
import { stockKindOf } from './schema.ts';
import type {
  AnkiCard,
  AnkiDeck,
  AnkiFsrsState,
  AnkiLayout,
  AnkiMedia,
  AnkiNote,
  AnkiNoteBundle,
  AnkiNoteType,
  AnkiRevlog,
} from './types.ts';

export const DEFAULT_BATCH = 1000;

type Row = Record<string, unknown>;

const corrupt = (error: unknown) =>
  error instanceof AnkiPackageError
    ? error
    : new AnkiPackageError('corruptDatabase', error instanceof Error ? error.message : String(error), {
        cause: error,
      });

/** Runs `read`, turning any SQLite failure into corruptDatabase. */
function guarded<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw corrupt(error);
  }
}

/** Yields the rows of `statement` in arrays of `size`, failing with corruptDatabase on a broken page. */
function* batches<T>(statement: StatementSync, params: unknown[], size: number, map: (row: Row) => T): Generator<T[]> {
  let batch: T[] = [];
  const rows = guarded(() => statement.iterate(...(params as never[])));
  while (true) {
    const next = guarded(() => rows.next());
    if (next.done) break;
    batch.push(map(next.value as Row));
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

const num = (value: unknown) => Number(value ?? 0);
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

const noteOf = (row: Row): AnkiNote => ({
  id: num(row.id),
  guid: String(row.guid),
  noteTypeId: num(row.mid),
  fields: String(row.flds ?? '').split('\x1f'),
  tags: splitTags(row.tags),
  modified: num(row.mod),
});

const cardOf = (row: Row): AnkiCard => ({
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

const revlogOf = (row: Row): AnkiRevlog => ({
  id: num(row.id),
  cardId: num(row.cid),
  ease: num(row.ease),
  interval: num(row.ivl),
  lastInterval: num(row.lastIvl),
  factor: num(row.factor),
  timeMs: num(row.time),
  type: num(row.type),
});

const NOTE_COLUMNS = 'id, guid, mid, mod, tags, flds';
const CARD_COLUMNS = 'id, nid, did, odid, ord, queue, type, due, odue, ivl, factor, reps, lapses, data';
const REVLOG_COLUMNS = 'id, cid, ease, ivl, lastIvl, factor, time, type';

export class AnkiReader implements Disposable {
  readonly layout: AnkiLayout;
  /** The collection's schema version: 11 (JSON in col) up to 18 (tables). */
  readonly schema: number;
  /** Seconds since the epoch of the collection's creation day: review cards' `due` counts days from it. */
  readonly created: number;
  private readonly db: DatabaseSync;
  private readonly mediaList: AnkiMedia[];
  private readonly dir: string | undefined;
  private closed = false;
  private noteTypeCache: AnkiNoteType[] | undefined;
  private deckCache: AnkiDeck[] | undefined;

  constructor(args: { db: DatabaseSync; layout: AnkiLayout; media: AnkiMedia[]; dir: string | undefined }) {
    this.db = args.db;
    this.layout = args.layout;
    this.mediaList = args.media;
    this.dir = args.dir;
    const col = guarded(() => this.db.prepare('SELECT crt, ver FROM col').get()) as Row | undefined;
    if (!col) throw new AnkiPackageError('corruptDatabase', 'no col row');
    this.schema = num(col.ver);
    this.created = num(col.crt);
    if (this.schema < 11 || this.schema > 18) throw new AnkiPackageError('unknownLayout', `schema ${this.schema}`);
  }

  /** Every note type, fields and templates in order. */
  noteTypes(): AnkiNoteType[] {
    this.noteTypeCache ??= guarded(() => (this.schema >= 15 ? this.noteTypesFromTables() : this.noteTypesFromJson()));
    return this.noteTypeCache;
  }

  private noteTypesFromJson(): AnkiNoteType[] {
    const row = this.db.prepare('SELECT models FROM col').get() as Row;
    const models = JSON.parse(String(row.models || '{}')) as Record<string, Record<string, unknown>>;
    return Object.values(models).map((model) => {
      const flds = (model.flds as { name: string; ord?: number }[]) ?? [];
      const tmpls = (model.tmpls as { name: string; ord?: number; qfmt?: string; afmt?: string }[]) ?? [];
      return {
        id: num(model.id),
        name: String(model.name ?? ''),
        kind: num(model.type) === 1 ? 'cloze' : 'standard',
        originalStockKind: stockKindOf(num(model.originalStockKind)),
        fields: [...flds].sort((a, b) => (a.ord ?? 0) - (b.ord ?? 0)).map((f) => String(f.name)),
        templates: tmpls.map((t, i) => ({
          ord: t.ord ?? i,
          name: String(t.name ?? ''),
          qfmt: String(t.qfmt ?? ''),
          afmt: String(t.afmt ?? ''),
        })),
      };
    });
  }

  private noteTypesFromTables(): AnkiNoteType[] {
    const fields = new Map<number, string[]>();
    for (const row of this.db.prepare('SELECT ntid, ord, name FROM fields').all() as Row[]) {
      const list = fields.get(num(row.ntid)) ?? [];
      list[num(row.ord)] = String(row.name);
      fields.set(num(row.ntid), list);
    }
    const templates = new Map<number, AnkiNoteType['templates']>();
    for (const row of this.db.prepare('SELECT ntid, ord, name, config FROM templates').all() as Row[]) {
      const config = readMessage(row.config as Uint8Array);
      const list = templates.get(num(row.ntid)) ?? [];
      list.push({
        ord: num(row.ord),
        name: String(row.name),
        qfmt: fieldString(config, 1),
        afmt: fieldString(config, 2),
      });
      templates.set(num(row.ntid), list);
    }
    return (this.db.prepare('SELECT id, name, config FROM notetypes').all() as Row[]).map((row) => {
      const config = readMessage(row.config as Uint8Array);
      const id = num(row.id);
      return {
        id,
        name: String(row.name),
        kind: fieldNumber(config, 1) === 1 ? 'cloze' : 'standard',
        originalStockKind: stockKindOf(fieldNumber(config, 9)),
        fields: (fields.get(id) ?? []).filter((name) => name !== undefined),
        templates: (templates.get(id) ?? []).sort((a, b) => a.ord - b.ord),
      };
    });
  }

  /** Every deck, with its full `Parent::Child` name. */
  decks(): AnkiDeck[] {
    this.deckCache ??= guarded(() => {
      if (this.schema >= 15) {
        return (this.db.prepare('SELECT id, name FROM decks').all() as Row[]).map((row) => ({
          id: num(row.id),
          name: String(row.name).split('\x1f').join('::'),
        }));
      }
      const row = this.db.prepare('SELECT decks FROM col').get() as Row;
      const decks = JSON.parse(String(row.decks || '{}')) as Record<string, { id: unknown; name: unknown }>;
      return Object.values(decks).map((deck) => ({ id: num(deck.id), name: String(deck.name) }));
    });
    return this.deckCache;
  }

  counts(): { notes: number; cards: number; revlog: number } {
    const count = (table: string) => num((this.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as Row).n);
    return guarded(() => ({ notes: count('notes'), cards: count('cards'), revlog: count('revlog') }));
  }

  notes(batchSize = DEFAULT_BATCH): Generator<AnkiNote[]> {
    return batches(this.db.prepare(`SELECT ${NOTE_COLUMNS} FROM notes ORDER BY id`), [], batchSize, noteOf);
  }

  cards(batchSize = DEFAULT_BATCH): Generator<AnkiCard[]> {
    return batches(this.db.prepare(`SELECT ${CARD_COLUMNS} FROM cards ORDER BY nid, ord, id`), [], batchSize, cardOf);
  }

  revlog(batchSize = DEFAULT_BATCH): Generator<AnkiRevlog[]> {
    return batches(this.db.prepare(`SELECT ${REVLOG_COLUMNS} FROM revlog ORDER BY cid, id`), [], batchSize, revlogOf);
  }

  /** One card's review log, oldest first. */
  revlogFor(cardId: number): AnkiRevlog[] {
    return guarded(() =>
      (this.db.prepare(`SELECT ${REVLOG_COLUMNS} FROM revlog WHERE cid = ? ORDER BY id`).all(cardId) as Row[]).map(
        revlogOf,
      ),
    );
  }

  /** Notes in batches, each with its cards and their review logs: the unit the mapping works on. */
  *bundles(batchSize = DEFAULT_BATCH): Generator<AnkiNoteBundle[]> {
    const cardsOf = this.db.prepare(
      `SELECT ${CARD_COLUMNS} FROM cards WHERE nid BETWEEN ? AND ? ORDER BY nid, ord, id`,
    );
    const revlogOf_ = this.db.prepare(
      `SELECT ${REVLOG_COLUMNS} FROM revlog WHERE cid IN (SELECT id FROM cards WHERE nid BETWEEN ? AND ?) ORDER BY cid, id`,
    );
    for (const notes of this.notes(batchSize)) {
      const first = notes[0]!.id;
      const last = notes[notes.length - 1]!.id;
      const byNote = new Map<number, AnkiNoteBundle>(notes.map((note) => [note.id, { note, cards: [] }]));
      const byCard = new Map<number, AnkiRevlog[]>();
      for (const batch of batches(cardsOf, [first, last], batchSize, cardOf)) {
        for (const card of batch) {
          const revlog: AnkiRevlog[] = [];
          byCard.set(card.id, revlog);
          byNote.get(card.noteId)?.cards.push({ card, revlog });
        }
      }
      for (const batch of batches(revlogOf_, [first, last], batchSize, revlogOf)) {
        for (const entry of batch) byCard.get(entry.cardId)?.push(entry);
      }
      yield [...byNote.values()];
    }
  }

  /** The package's media: the name notes use, and where the file was unpacked. */
  media(): AnkiMedia[] {
    return this.mediaList;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.db.close();
    } finally {
      if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    }
  }

  [Symbol.dispose](): void {
    this.close();
  }
}

/** An unpacked collection file may be marked for write-ahead logging, which a read-only connection
 * cannot open without its -shm file; it has no -wal beside it, so the rollback journal mode is the same. */
function clearWalFlag(path: string): void {
  const fd = openSync(path, 'r+');
  try {
    const header = Buffer.alloc(20);
    if (readSync(fd, header, 0, 20, 0) < 20) return;
    if (header.toString('latin1', 0, 15) !== 'SQLite format 3') return;
    if (header[18] === 2 || header[19] === 2) writeSync(fd, Buffer.from([1, 1]), 0, 2, 18);
  } finally {
    closeSync(fd);
  }
}

/**
 * Anki 2.1.50 and later declare their own collation, `unicase` (Unicode case folding), on the names of note
 * types, fields, templates, decks, deck options and tags. SQLite cannot use those tables' indexes without it
 * ("no such collation sequence"), and node:sqlite cannot define a collation. The unpacked file is this import's
 * alone, so its schema is made to say NOCASE instead (the same order for ASCII names) and the indexes on those
 * names are rebuilt in that order: every read then works, and quick_check checks what it should.
 */
function replaceAnkiCollation(path: string): void {
  const db = guarded(() => new DatabaseSync(path));
  try {
    guarded(() => {
      const uses = db
        .prepare("SELECT count(*) AS n FROM sqlite_master WHERE sql LIKE '%collate%unicase%'")
        .get() as Row;
      if (num(uses.n) === 0) return;
      db.enableDefensive(false);
      const version = num((db.prepare('PRAGMA schema_version').get() as Row).schema_version);
      db.exec('PRAGMA writable_schema = ON');
      db.function('engram_nocase', (sql) => String(sql).replace(/\bcollate\s+"?unicase"?/gi, 'COLLATE NOCASE'));
      db.prepare("UPDATE sqlite_master SET sql = engram_nocase(sql) WHERE sql LIKE '%collate%unicase%'").run();
      db.exec(`PRAGMA schema_version = ${version + 1}`);
      db.exec('PRAGMA writable_schema = OFF');
      db.enableDefensive(true);
      db.exec('REINDEX NOCASE');
    });
  } finally {
    db.close();
  }
}

const REQUIRED_TABLES = ['col', 'notes', 'cards', 'revlog'];

/** Opens an unpacked collection read-only and checks it before anything is read. */
export function openCollection(args: {
  path: string;
  layout: AnkiLayout;
  media: AnkiMedia[];
  dir?: string;
  maxFieldBytes: number;
}): AnkiReader {
  let db: DatabaseSync | undefined;
  try {
    clearWalFlag(args.path);
    replaceAnkiCollation(args.path);
    db = guarded(() => new DatabaseSync(args.path, { readOnly: true }));
    const opened = db;
    const tables = guarded(() =>
      (opened.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Row[]).map((row) =>
        String(row.name),
      ),
    );
    const missing = REQUIRED_TABLES.filter((table) => !tables.includes(table));
    if (missing.length) throw new AnkiPackageError('corruptDatabase', `missing ${missing.join(', ')}`);
    const check = guarded(() => opened.prepare('PRAGMA quick_check').all() as Row[]);
    const result = String(Object.values(check[0] ?? {})[0]);
    if (result !== 'ok') throw new AnkiPackageError('corruptDatabase', result);
    // octet_length reads a value's size from its record header, not the value: a 300 MB field is never loaded.
    const huge = guarded(
      () => opened.prepare('SELECT id FROM notes WHERE octet_length(flds) > ? LIMIT 1').get(args.maxFieldBytes) as Row,
    );
    if (huge) throw new AnkiPackageError('fieldTooLarge', `note ${String(huge.id)}`);
    const reader = new AnkiReader({ db: opened, layout: args.layout, media: args.media, dir: args.dir });
    reader.noteTypes();
    reader.decks();
    return reader;
  } catch (error) {
    try {
      db?.close();
    } catch {}
    throw corrupt(error);
  }
}
