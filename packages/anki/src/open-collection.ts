// Opening an unpacked collection, this import's private copy, to read it: its schema is checked first
// (collection-shape.ts: nothing but what Anki writes, before any row is read or checked), then Anki's own
// collation is made readable, the file is checked page by page, and the note types and decks, read whole,
// are weighed. Every connection caps the values SQLite may build (SQLITE_LIMIT_LENGTH), so whatever the
// checks did not foresee cannot make a value larger than that.
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { corrupt, guarded, num, type Row } from './collection-rows.ts';
import { checkCollectionShape } from './collection-shape.ts';
import { AnkiPackageError } from './errors.ts';
import { AnkiReader } from './reader.ts';
import type { AnkiLayout, AnkiMedia } from './types.ts';

/** The largest value SQLite builds for us (a legacy collection keeps all its note types in one JSON value). */
const MAX_VALUE_BYTES = 64 * 1024 ** 2;
/** The longest statement SQLite parses, the schema's CREATE statements included. */
const MAX_SQL_BYTES = 1024 ** 2;

const open = (path: string, readOnly: boolean, maxNoteBytes: number) =>
  guarded(
    () =>
      new DatabaseSync(path, {
        readOnly,
        limits: { length: Math.max(MAX_VALUE_BYTES, maxNoteBytes), sqlLength: MAX_SQL_BYTES },
      }),
  );

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

/** Runs `use` on a connection of its own, closed after. */
function withConnection(path: string, readOnly: boolean, use: (db: DatabaseSync) => void) {
  const db = open(path, readOnly, 0);
  try {
    guarded(() => use(db));
  } finally {
    db.close();
  }
}

/**
 * Anki 2.1.50 and later declare their own collation, `unicase` (Unicode case folding), on the names of note
 * types, fields, templates, decks, deck options and tags. SQLite cannot use those tables' indexes without it
 * ("no such collation sequence"), and node:sqlite cannot define a collation. The unpacked file is this import's
 * alone, so its schema is made to say NOCASE instead (the same order for ASCII names) and the indexes on those
 * names are rebuilt in that order: every read then works, and quick_check checks what it should.
 */
function replaceAnkiCollation(db: DatabaseSync): void {
  const uses = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE sql LIKE '%collate%unicase%'").get() as Row;
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
}

const REQUIRED_TABLES = ['col', 'notes', 'cards', 'revlog'];

/** What the note types and decks a reader reads whole weigh, by SQLite's measure (no value is loaded). */
function configBytes(db: DatabaseSync, schema: number): number {
  const sizes =
    schema >= 15
      ? [
          'SELECT sum(octet_length(name) + octet_length(config)) FROM notetypes',
          'SELECT sum(octet_length(name) + octet_length(config)) FROM fields',
          'SELECT sum(octet_length(name) + octet_length(config)) FROM templates',
          'SELECT sum(octet_length(name)) FROM decks',
        ]
      : ['SELECT sum(octet_length(models) + octet_length(decks)) FROM col'];
  return sizes.reduce((total, sql) => total + num(Object.values(db.prepare(sql).get() as Row)[0]), 0);
}

/** Opens an unpacked collection read-only and checks it before anything is read. */
export function openCollection(args: {
  path: string;
  layout: AnkiLayout;
  media: AnkiMedia[];
  dir?: string;
  maxNoteBytes: number;
  maxNoteTypesBytes: number;
}): AnkiReader {
  let db: DatabaseSync | undefined;
  try {
    clearWalFlag(args.path);
    withConnection(args.path, true, checkCollectionShape);
    withConnection(args.path, false, replaceAnkiCollation);
    db = open(args.path, true, args.maxNoteBytes);
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
    const reader = new AnkiReader({
      db: opened,
      layout: args.layout,
      media: args.media,
      dir: args.dir,
      maxNoteBytes: args.maxNoteBytes,
    });
    const config = guarded(() => configBytes(opened, reader.schema));
    if (config > args.maxNoteTypesBytes) throw new AnkiPackageError('noteTypesTooLarge', `${config} bytes`);
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
