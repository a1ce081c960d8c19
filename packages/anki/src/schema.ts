// The two collection schemas the writer and the fixture generator produce: schema 11 (note types and decks
// as JSON in the `col` row; what `collection.anki2`/`.anki21` hold and every current Anki imports) and
// schema 18 (note types, fields, templates and decks as tables with protobuf configs; what
// `collection.anki21b` holds). Anki declares some name columns `COLLATE unicase`, a collation only Anki
// registers; these files use NOCASE instead, which any SQLite opens and Anki rebuilds on import.
import { ProtoWriter } from './protobuf.ts';
import type { AnkiDeck, AnkiNoteType, StockKind } from './types.ts';

export const SCHEMA11_SQL = `
CREATE TABLE col (id integer PRIMARY KEY, crt integer NOT NULL, mod integer NOT NULL, scm integer NOT NULL,
  ver integer NOT NULL, dty integer NOT NULL, usn integer NOT NULL, ls integer NOT NULL, conf text NOT NULL,
  models text NOT NULL, decks text NOT NULL, dconf text NOT NULL, tags text NOT NULL);
CREATE TABLE notes (id integer PRIMARY KEY, guid text NOT NULL, mid integer NOT NULL, mod integer NOT NULL,
  usn integer NOT NULL, tags text NOT NULL, flds text NOT NULL, sfld integer NOT NULL, csum integer NOT NULL,
  flags integer NOT NULL, data text NOT NULL);
CREATE TABLE cards (id integer PRIMARY KEY, nid integer NOT NULL, did integer NOT NULL, ord integer NOT NULL,
  mod integer NOT NULL, usn integer NOT NULL, type integer NOT NULL, queue integer NOT NULL, due integer NOT NULL,
  ivl integer NOT NULL, factor integer NOT NULL, reps integer NOT NULL, lapses integer NOT NULL,
  left integer NOT NULL, odue integer NOT NULL, odid integer NOT NULL, flags integer NOT NULL, data text NOT NULL);
CREATE TABLE revlog (id integer PRIMARY KEY, cid integer NOT NULL, usn integer NOT NULL, ease integer NOT NULL,
  ivl integer NOT NULL, lastIvl integer NOT NULL, factor integer NOT NULL, time integer NOT NULL,
  type integer NOT NULL);
CREATE TABLE graves (usn integer NOT NULL, oid integer NOT NULL, type integer NOT NULL);
`;

/** Anki's indexes, created after the rows go in (faster than keeping them up to date row by row). */
export const SCHEMA11_INDEXES = `
CREATE INDEX ix_notes_usn ON notes (usn);
CREATE INDEX ix_cards_usn ON cards (usn);
CREATE INDEX ix_revlog_usn ON revlog (usn);
CREATE INDEX ix_cards_nid ON cards (nid);
CREATE INDEX ix_cards_sched ON cards (did, queue, due);
CREATE INDEX ix_revlog_cid ON revlog (cid);
CREATE INDEX ix_notes_csum ON notes (csum);
`;

export const SCHEMA18_SQL = `${SCHEMA11_SQL.replace(
  'CREATE TABLE graves (usn integer NOT NULL, oid integer NOT NULL, type integer NOT NULL);',
  'CREATE TABLE graves (oid integer NOT NULL, type integer NOT NULL, usn integer NOT NULL, PRIMARY KEY (oid, type)) WITHOUT ROWID;',
)}
CREATE TABLE deck_config (id integer PRIMARY KEY NOT NULL, name text NOT NULL COLLATE NOCASE,
  mtime_secs integer NOT NULL, usn integer NOT NULL, config blob NOT NULL);
CREATE TABLE config (KEY text NOT NULL PRIMARY KEY, usn integer NOT NULL, mtime_secs integer NOT NULL,
  val blob NOT NULL) WITHOUT ROWID;
CREATE TABLE tags (tag text NOT NULL PRIMARY KEY COLLATE NOCASE, usn integer NOT NULL, collapsed boolean NOT NULL,
  config blob NULL) WITHOUT ROWID;
CREATE TABLE fields (ntid integer NOT NULL, ord integer NOT NULL, name text NOT NULL COLLATE NOCASE,
  config blob NOT NULL, PRIMARY KEY (ntid, ord)) WITHOUT ROWID;
CREATE TABLE templates (ntid integer NOT NULL, ord integer NOT NULL, name text NOT NULL COLLATE NOCASE,
  mtime_secs integer NOT NULL, usn integer NOT NULL, config blob NOT NULL, PRIMARY KEY (ntid, ord)) WITHOUT ROWID;
CREATE TABLE notetypes (id integer NOT NULL PRIMARY KEY, name text NOT NULL COLLATE NOCASE,
  mtime_secs integer NOT NULL, usn integer NOT NULL, config blob NOT NULL);
CREATE TABLE decks (id integer PRIMARY KEY NOT NULL, name text NOT NULL COLLATE NOCASE, mtime_secs integer NOT NULL,
  usn integer NOT NULL, common blob NOT NULL, kind blob NOT NULL);
`;

/** StockNotetype.OriginalStockKind's numbers (notetypes.proto), 0 = unknown. */
export const STOCK_KIND_NUMBERS: Record<StockKind, number> = {
  basic: 1,
  basicAndReversed: 2,
  basicOptionalReversed: 3,
  basicTyping: 4,
  cloze: 5,
  imageOcclusion: 6,
};
export const stockKindOf = (n: number): StockKind | undefined =>
  (Object.keys(STOCK_KIND_NUMBERS) as StockKind[]).find((kind) => STOCK_KIND_NUMBERS[kind] === n);

const CSS = '.card { font-family: arial; font-size: 20px; text-align: center; color: black; background-color: white; }';

/** The `models` JSON of a schema-11 `col` row. */
/** The positions of the fields a question template names (any one filled makes the card), else the first. */
function requiredFields(fields: string[], qfmt: string, cloze: boolean): number[] {
  if (cloze) return [0];
  const named = new Set(
    [...qfmt.matchAll(/\{\{[#^]?([^{}]*)\}\}/g)].map((match) => match[1]!.split(':').at(-1)!.trim()),
  );
  const positions = fields.flatMap((name, index) => (named.has(name) ? [index] : []));
  return positions.length ? positions : [0];
}

export function legacyModels(noteTypes: AnkiNoteType[], deckId: number, now: number): string {
  const models: Record<string, unknown> = {};
  for (const type of noteTypes) {
    const cloze = type.kind === 'cloze';
    models[String(type.id)] = {
      id: type.id,
      name: type.name,
      type: cloze ? 1 : 0,
      mod: now,
      usn: -1,
      sortf: 0,
      did: deckId,
      tmpls: type.templates.map((t, ord) => ({
        name: t.name,
        ord,
        qfmt: t.qfmt,
        afmt: t.afmt,
        bqfmt: '',
        bafmt: '',
        did: null,
        bfont: '',
        bsize: 0,
      })),
      flds: type.fields.map((name, ord) => ({ name, ord, sticky: false, rtl: false, font: 'Arial', size: 20 })),
      css: type.css ?? CSS,
      latexPre: '\\documentclass[12pt]{article}\n\\special{papersize=3in,5in}\n\\begin{document}\n',
      latexPost: '\\end{document}',
      latexsvg: false,
      // Which fields each template needs (Anki recomputes this on import): those its question names.
      req: type.templates.map((template, ord) => [ord, 'any', requiredFields(type.fields, template.qfmt, cloze)]),
      tags: [],
      vers: [],
      ...(type.originalStockKind && { originalStockKind: STOCK_KIND_NUMBERS[type.originalStockKind] }),
    };
  }
  return JSON.stringify(models);
}

/** The `decks` JSON of a schema-11 `col` row (every deck normal, on options group 1). */
export function legacyDecks(decks: AnkiDeck[], now: number): string {
  const out: Record<string, unknown> = {};
  for (const deck of decks) {
    out[String(deck.id)] = {
      id: deck.id,
      mod: now,
      name: deck.name,
      usn: -1,
      lrnToday: [0, 0],
      revToday: [0, 0],
      newToday: [0, 0],
      timeToday: [0, 0],
      collapsed: false,
      browserCollapsed: false,
      desc: '',
      dyn: 0,
      conf: 1,
      extendNew: 0,
      extendRev: 0,
    };
  }
  return JSON.stringify(out);
}

/** The `dconf` JSON: one options group; the scheduling details are Anki's defaults (it fills in the rest). */
export function legacyDeckConfig(now: number): string {
  return JSON.stringify({
    '1': {
      id: 1,
      mod: now,
      name: 'Default',
      usn: -1,
      maxTaken: 60,
      autoplay: true,
      timer: 0,
      replayq: true,
      dyn: false,
      new: { delays: [1, 10], ints: [1, 4, 0], initialFactor: 2500, order: 1, perDay: 20, bury: false },
      rev: { perDay: 200, ease4: 1.3, ivlFct: 1, maxIvl: 36500, bury: false, hardFactor: 1.2 },
      lapse: { delays: [10], mult: 0, minInt: 1, leechFails: 8, leechAction: 1 },
    },
  });
}

export const LEGACY_CONF = JSON.stringify({
  nextPos: 1,
  estTimes: true,
  activeDecks: [1],
  sortType: 'noteFld',
  timeLim: 0,
  sortBackwards: false,
  addToCur: true,
  curDeck: 1,
  newSpread: 0,
  dueCounts: true,
  curModel: null,
  collapseTime: 1200,
});

// Schema-18 configs (notetypes.proto, decks.proto): Notetype.Config {kind 1, sort_field_idx 2, css 3,
// original_stock_kind 9}; Template.Config {q_format 1, a_format 2}; DeckKindContainer {normal 1 {config_id 1}}.
export const notetypeConfig = (type: AnkiNoteType) => {
  const writer = new ProtoWriter().varint(1, type.kind === 'cloze' ? 1 : 0).string(3, CSS);
  if (type.originalStockKind) writer.varint(9, STOCK_KIND_NUMBERS[type.originalStockKind]);
  return writer.finish();
};
export const fieldConfig = () => new ProtoWriter().string(3, 'Arial').varint(4, 20).finish();
export const templateConfig = (qfmt: string, afmt: string) =>
  new ProtoWriter().string(1, qfmt).string(2, afmt).finish();
export const deckCommon = () => new Uint8Array();
export const deckKindNormal = () => new ProtoWriter().bytes(1, new ProtoWriter().varint(1, 1).finish()).finish();
