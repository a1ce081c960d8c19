// The shapes of schema a collection may have, checked on sqlite_master before anything in it is read: the
// tables Anki writes (schemas 11 to 18, rslib's storage/upgrades) with Anki's columns and plain declarations,
// SQLite's own statistics tables, and indexes on plain columns. A view, a trigger, a virtual table, a
// generated column, a CHECK constraint or a default computed by an expression runs code of the file's choosing
// while we read or check it: a generated `flds` repeating a string to gigabytes, or a CHECK that quick_check
// evaluates on every row. Anki writes none of them, so each is refused with its reason.
import type { DatabaseSync } from 'node:sqlite';
import { AnkiPackageError, type AnkiPackageErrorCode } from './errors.ts';

type Row = Record<string, unknown>;

/** Every column each of Anki's tables has had from schema 11 to 18, by table. */
const ANKI_TABLES: Record<string, readonly string[]> = {
  col: ['id', 'crt', 'mod', 'scm', 'ver', 'dty', 'usn', 'ls', 'conf', 'models', 'decks', 'dconf', 'tags'],
  notes: ['id', 'guid', 'mid', 'mod', 'usn', 'tags', 'flds', 'sfld', 'csum', 'flags', 'data'],
  cards: [
    ...['id', 'nid', 'did', 'ord', 'mod', 'usn', 'type', 'queue', 'due', 'ivl', 'factor', 'reps', 'lapses'],
    ...['left', 'odue', 'odid', 'flags', 'data'],
  ],
  revlog: ['id', 'cid', 'usn', 'ease', 'ivl', 'lastivl', 'factor', 'time', 'type'],
  graves: ['usn', 'oid', 'type'],
  deck_config: ['id', 'name', 'mtime_secs', 'usn', 'config'],
  config: ['key', 'usn', 'mtime_secs', 'val'],
  // Schema 17 kept tags by id and name for a while; 18 by the tag itself.
  tags: ['tag', 'id', 'name', 'usn', 'collapsed', 'config'],
  fields: ['ntid', 'ord', 'name', 'config'],
  templates: ['ntid', 'ord', 'name', 'mtime_secs', 'usn', 'config'],
  notetypes: ['id', 'name', 'mtime_secs', 'usn', 'config'],
  decks: ['id', 'name', 'mtime_secs', 'usn', 'common', 'kind'],
  // SQLite's own: ANALYZE's statistics (Anki runs it) and AUTOINCREMENT's counters.
  sqlite_stat1: ['tbl', 'idx', 'stat'],
  sqlite_stat2: ['tbl', 'idx', 'sampleno', 'sample'],
  sqlite_stat3: ['tbl', 'idx', 'neq', 'nlt', 'ndlt', 'sample'],
  sqlite_stat4: ['tbl', 'idx', 'neq', 'nlt', 'ndlt', 'sample'],
  sqlite_sequence: ['name', 'seq'],
};

/** The words a table's definition may use besides its name and its columns': types and plain constraints. */
const TABLE_WORDS = new Set(
  [
    ...['create', 'table', 'if', 'not', 'exists', 'primary', 'key', 'null', 'unique', 'default', 'autoincrement'],
    ...['integer', 'int', 'bigint', 'text', 'varchar', 'char', 'blob', 'bytes', 'boolean', 'real', 'numeric'],
    ...['collate', 'unicase', 'nocase', 'binary', 'rtrim', 'asc', 'desc', 'without', 'rowid'],
  ].map((word) => word.toLowerCase()),
);
/** The words an index may use besides its name, its table's and its columns': a partial index's comparison too. */
const INDEX_WORDS = new Set(
  ['create', 'unique', 'index', 'if', 'not', 'exists', 'on', 'asc', 'desc', 'collate', 'where', 'and'].concat(
    'unicase nocase binary rtrim'.split(' '),
  ),
);
const INDEX_OPERATORS = new Set(['=', '==', '!=', '<>', '<', '<=', '>', '>=']);

/**
 * The tokens of a CREATE statement: words (quoted identifiers unquoted), numbers, string literals as `'`,
 * punctuation; comments dropped. Anything else (an operator in a table, a stray character) is `?`.
 */
function tokens(sql: string): string[] {
  const found: string[] = [];
  const pattern =
    /\s+|--[^\n]*|\/\*[\s\S]*?\*\/|'(?:[^']|'')*'|"((?:[^"]|"")*)"|`((?:[^`]|``)*)`|\[([^\]]*)\]|(-?\d+(?:\.\d+)?)|([A-Za-z_][A-Za-z0-9_$]*)|([(),])|(==|!=|<>|<=|>=|[=<>])|([\s\S])/gy;
  for (const match of sql.matchAll(pattern)) {
    const [text, double, back, bracket, number, word, punctuation, operator, other] = match;
    if (/^\s|^--|^\/\*/.test(text)) continue;
    if (text.startsWith("'")) found.push("'");
    else if (number !== undefined) found.push('0');
    else if (other !== undefined) found.push('?');
    else found.push((double ?? back ?? bracket ?? word ?? punctuation ?? operator ?? '').toLowerCase());
  }
  return found;
}

const refuse = (code: AnkiPackageErrorCode, detail: string): never => {
  throw new AnkiPackageError(code, detail);
};

function checkTable(db: DatabaseSync, name: string, sql: string) {
  const known = ANKI_TABLES[name.toLowerCase()];
  if (!known) refuse('schemaUnknown', `table ${name}`);
  const columns = db.prepare('SELECT name, hidden FROM pragma_table_xinfo(?)').all(name) as Row[];
  const generated = columns.find((column) => Number(column.hidden) !== 0);
  if (generated) refuse('schemaGeneratedColumn', `${name}.${String(generated.name)}`);
  const names = columns.map((column) => String(column.name).toLowerCase());
  const unknown = names.find((column) => !known!.includes(column));
  if (unknown) refuse('schemaUnknown', `column ${name}.${unknown}`);
  const allowed = (token: string) =>
    TABLE_WORDS.has(token) || token === name.toLowerCase() || names.includes(token) || /^[(),'0]$/.test(token);
  const stray = tokens(sql).find((token) => !allowed(token));
  if (stray !== undefined) refuse('schemaUnknown', `table ${name}: ${stray}`);
}

function checkIndex(db: DatabaseSync, name: string, table: string, sql: string) {
  const known = ANKI_TABLES[table.toLowerCase()];
  if (!known) refuse('schemaUnknown', `index ${name} on ${table}`);
  const allowed = (token: string) =>
    INDEX_WORDS.has(token) ||
    INDEX_OPERATORS.has(token) ||
    token === name.toLowerCase() ||
    token === table.toLowerCase() ||
    known!.includes(token) ||
    /^[(),0]$/.test(token);
  const stray = tokens(sql).find((token) => !allowed(token));
  if (stray !== undefined) refuse('schemaUnknown', `index ${name}: ${stray}`);
  // An expression's column has cid -2: none may be left once the words above are plain.
  const columns = db.prepare('SELECT cid FROM pragma_index_xinfo(?)').all(name) as Row[];
  if (columns.some((column) => Number(column.cid) === -2)) refuse('schemaUnknown', `index ${name}: expression`);
}

/** Refuses a collection whose schema holds anything Anki does not write, before a row of it is read. */
export function checkCollectionShape(db: DatabaseSync): void {
  const entries = db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_schema').all() as Row[];
  const sqlOf = (entry: Row) => String(entry.sql ?? '');
  const virtual = entries.find((entry) => entry.type === 'table' && /^\s*create\s+virtual\b/i.test(sqlOf(entry)));
  if (virtual) refuse('schemaVirtualTable', String(virtual.name));
  const view = entries.find((entry) => entry.type === 'view');
  if (view) refuse('schemaView', String(view.name));
  const trigger = entries.find((entry) => entry.type === 'trigger');
  if (trigger) refuse('schemaTrigger', String(trigger.name));
  for (const entry of entries) {
    const name = String(entry.name);
    if (entry.type === 'table') checkTable(db, name, sqlOf(entry));
    // An index SQLite made itself (a PRIMARY KEY's, a UNIQUE's) has no SQL and only the table's columns.
    else if (entry.type === 'index' && entry.sql !== null) checkIndex(db, name, String(entry.tbl_name), sqlOf(entry));
    else if (entry.type !== 'index') refuse('schemaUnknown', `${String(entry.type)} ${name}`);
  }
}
