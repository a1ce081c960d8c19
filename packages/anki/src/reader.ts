// Reading an opened collection: note types, decks, notes, cards, review logs and media, for schema 11
// (note types and decks as JSON in `col`) and schema 18 (tables with protobuf configs) alike. Big tables
// are read with SQLite cursors and yielded in batches bounded by count and by bytes (note-bundles.ts), so a
// collection of any size is never in memory at once, and a note over the limit is measured, never read; note
// types and decks are few (open-collection.ts bounds their bytes) and read whole.
import { rmSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import {
  batches,
  CARD_COLUMNS,
  cardOf,
  guarded,
  NOTES_SQL,
  noteOf,
  num,
  REVLOG_COLUMNS,
  type Row,
  revlogOf,
} from './collection-rows.ts';
import { AnkiPackageError } from './errors.ts';
import { noteBundles } from './note-bundles.ts';
import { fieldNumber, fieldString, readMessage } from './protobuf.ts';
import { stockKindOf } from './schema.ts';
import type {
  AnkiCard,
  AnkiDeck,
  AnkiLayout,
  AnkiMedia,
  AnkiNote,
  AnkiNoteBundle,
  AnkiNoteType,
  AnkiRevlog,
} from './types.ts';

export { fsrsFromData } from './collection-rows.ts';

/** Notes a batch holds at most. */
export const DEFAULT_BATCH = 1000;
/** Bytes a batch holds at most, as read (note-bundles.ts): one batch mapped while another is written stays small. */
export const DEFAULT_BATCH_BYTES = 8 * 1024 ** 2;

export class AnkiReader implements Disposable {
  readonly layout: AnkiLayout;
  /** The collection's schema version: 11 (JSON in col) up to 18 (tables). */
  readonly schema: number;
  /** Seconds since the epoch of the collection's creation day: review cards' `due` counts days from it. */
  readonly created: number;
  /** A note whose text, cards and reviews take more bytes than this is yielded marked tooLarge, unread. */
  readonly maxNoteBytes: number;
  private readonly db: DatabaseSync;
  private readonly mediaList: AnkiMedia[];
  private readonly dir: string | undefined;
  private closed = false;
  private noteTypeCache: AnkiNoteType[] | undefined;
  private deckCache: AnkiDeck[] | undefined;

  constructor(args: {
    db: DatabaseSync;
    layout: AnkiLayout;
    media: AnkiMedia[];
    dir: string | undefined;
    maxNoteBytes: number;
  }) {
    this.db = args.db;
    this.maxNoteBytes = args.maxNoteBytes;
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
    const max = this.maxNoteBytes;
    return batches(this.db.prepare(`${NOTES_SQL} ORDER BY id`), [max], batchSize, (row) => noteOf(row, max));
  }

  cards(batchSize = DEFAULT_BATCH): Generator<AnkiCard[]> {
    const statement = this.db.prepare(`SELECT ${CARD_COLUMNS} FROM cards ORDER BY nid, ord, id`);
    return batches(statement, [this.maxNoteBytes], batchSize, cardOf);
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

  /**
   * Notes in batches of at most `batchSize` notes and `batchBytes` bytes, each with its cards and their review
   * logs: the unit the mapping works on.
   */
  bundles(batchSize = DEFAULT_BATCH, batchBytes = DEFAULT_BATCH_BYTES): Generator<AnkiNoteBundle[]> {
    return noteBundles(this.db, { notes: batchSize, bytes: batchBytes, maxNoteBytes: this.maxNoteBytes });
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
