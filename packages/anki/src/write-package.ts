// Writing a package from a collection given in Anki's terms. The default layout is the legacy one
// (schema-11 `collection.anki2`, a JSON media map and plain numbered media files): what Anki's own
// "support older Anki versions" export writes and every current Anki imports. The current layout
// (`collection.anki21b`, zstd, protobuf media list, `meta` version 3) and legacy 2 (`collection.anki21`)
// are written too, for the fixture generator and the reader's tests. Rows go in in batched transactions
// from iterables and media are copied file by file, so nothing needs the whole collection in memory.
import { createHash, hash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { pipeline } from 'node:stream/promises';
import { createZstdCompress, zstdCompressSync } from 'node:zlib';
import yazl from 'yazl';
import { ProtoWriter } from './protobuf.ts';
import {
  deckCommon,
  deckKindNormal,
  fieldConfig,
  LEGACY_CONF,
  legacyDeckConfig,
  legacyDecks,
  legacyModels,
  notetypeConfig,
  SCHEMA11_INDEXES,
  SCHEMA11_SQL,
  SCHEMA18_SQL,
  templateConfig,
} from './schema.ts';
import type { AnkiCard, AnkiDeck, AnkiLayout, AnkiNote, AnkiNoteType, AnkiRevlog } from './types.ts';

export interface MediaInput {
  name: string;
  /** A file to copy, or the bytes themselves. */
  path?: string;
  data?: Uint8Array;
}

export interface CollectionInput {
  /** Seconds since the epoch of the collection's creation day (review cards' `due` counts from it). */
  created: number;
  noteTypes: AnkiNoteType[];
  decks: AnkiDeck[];
  notes: Iterable<AnkiNote>;
  cards: Iterable<AnkiCard>;
  revlog: Iterable<AnkiRevlog>;
  media: Iterable<MediaInput>;
}

export interface WriteOptions {
  layout?: AnkiLayout;
  /** Rows per transaction. */
  batchSize?: number;
  tempDir?: string;
}

/** A field as Anki's sort field and checksum see it: tags and entities gone. */
export function stripHtml(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .trim();
}

/** Anki's duplicate-check checksum: the first 8 hex digits of the SHA-1 of the stripped first field. */
export const fieldChecksum = (field: string) => Number.parseInt(hash('sha1', stripHtml(field)).slice(0, 8), 16);

function cardData(card: AnkiCard): string {
  if (!card.fsrs) return '{}';
  const { stability, difficulty, desiredRetention, lastReview } = card.fsrs;
  return JSON.stringify({
    s: stability,
    d: difficulty,
    ...(desiredRetention !== undefined && { dr: desiredRetention }),
    ...(lastReview !== undefined && { lrt: lastReview }),
  });
}

/** Runs `insert` for each item in transactions of `size`. */
function insertAll<T>(db: DatabaseSync, items: Iterable<T>, size: number, insert: (item: T) => void): void {
  let pending = 0;
  db.exec('BEGIN');
  for (const item of items) {
    insert(item);
    if (++pending >= size) {
      db.exec('COMMIT; BEGIN');
      pending = 0;
    }
  }
  db.exec('COMMIT');
}

function writeCollection(path: string, collection: CollectionInput, schema: 11 | 18, batchSize: number): void {
  const db = new DatabaseSync(path);
  try {
    db.exec('PRAGMA journal_mode = DELETE; PRAGMA synchronous = OFF; PRAGMA page_size = 4096;');
    db.exec(schema === 18 ? SCHEMA18_SQL : SCHEMA11_SQL);
    const now = Math.floor(Date.now() / 1000);
    const firstDeck = collection.decks[0]?.id ?? 1;
    db.prepare('INSERT INTO col VALUES (1, ?, ?, ?, ?, 0, 0, 0, ?, ?, ?, ?, ?)').run(
      collection.created,
      now * 1000,
      now * 1000,
      schema,
      LEGACY_CONF,
      schema === 18 ? '{}' : legacyModels(collection.noteTypes, firstDeck, now),
      schema === 18 ? '{}' : legacyDecks(collection.decks, now),
      schema === 18 ? '{}' : legacyDeckConfig(now),
      '{}',
    );
    if (schema === 18) {
      const notetype = db.prepare('INSERT INTO notetypes VALUES (?, ?, ?, -1, ?)');
      const field = db.prepare('INSERT INTO fields VALUES (?, ?, ?, ?)');
      const template = db.prepare('INSERT INTO templates VALUES (?, ?, ?, ?, -1, ?)');
      const deck = db.prepare('INSERT INTO decks VALUES (?, ?, ?, -1, ?, ?)');
      for (const type of collection.noteTypes) {
        notetype.run(type.id, type.name, now, notetypeConfig(type));
        for (const [ord, name] of type.fields.entries()) field.run(type.id, ord, name, fieldConfig());
        for (const [ord, t] of type.templates.entries()) {
          template.run(type.id, ord, t.name, now, templateConfig(t.qfmt, t.afmt));
        }
      }
      for (const d of collection.decks)
        deck.run(d.id, d.name.split('::').join('\x1f'), now, deckCommon(), deckKindNormal());
    }
    const note: StatementSync = db.prepare('INSERT INTO notes VALUES (?, ?, ?, ?, -1, ?, ?, ?, ?, 0, ?)');
    insertAll(db, collection.notes, batchSize, (n) => {
      const first = n.fields[0] ?? '';
      const tags = n.tags.length ? ` ${n.tags.join(' ')} ` : '';
      note.run(
        n.id,
        n.guid,
        n.noteTypeId,
        n.modified,
        tags,
        n.fields.join('\x1f'),
        stripHtml(first),
        fieldChecksum(first),
        '',
      );
    });
    const card = db.prepare('INSERT INTO cards VALUES (?, ?, ?, ?, ?, -1, ?, ?, ?, ?, ?, ?, ?, 0, 0, 0, 0, ?)');
    insertAll(db, collection.cards, batchSize, (c) =>
      card.run(
        c.id,
        c.noteId,
        c.deckId,
        c.ordinal,
        now,
        c.type,
        c.queue,
        c.due,
        c.interval,
        c.easeFactor,
        c.reps,
        c.lapses,
        cardData(c),
      ),
    );
    const revlog = db.prepare('INSERT INTO revlog VALUES (?, ?, -1, ?, ?, ?, ?, ?, ?)');
    insertAll(db, collection.revlog, batchSize, (r) =>
      revlog.run(r.id, r.cardId, r.ease, r.interval, r.lastInterval, r.factor, r.timeMs, r.type),
    );
    db.exec(SCHEMA11_INDEXES);
  } finally {
    db.close();
  }
}

/** The empty schema-11 collection newer packages carry beside their real one, for older Anki versions. */
function writeStub(path: string): void {
  writeCollection(path, { created: 0, noteTypes: [], decks: [], notes: [], cards: [], revlog: [], media: [] }, 11, 1);
}

/** Writes `collection` to `outPath` as an Anki package. */
export async function writePackage(outPath: string, collection: CollectionInput, options: WriteOptions = {}) {
  const layout = options.layout ?? 'anki2';
  const batchSize = options.batchSize ?? 5000;
  const dir = await mkdtemp(join(options.tempDir ?? tmpdir(), 'engram-anki-out-'));
  try {
    const current = layout === 'anki21b';
    const zip = new yazl.ZipFile();
    const done = pipeline(zip.outputStream, createWriteStream(outPath));

    const collectionPath = join(dir, 'collection');
    writeCollection(collectionPath, collection, current ? 18 : 11, batchSize);
    if (layout === 'anki2') {
      zip.addFile(collectionPath, 'collection.anki2');
    } else {
      const stub = join(dir, 'stub');
      writeStub(stub);
      zip.addFile(stub, 'collection.anki2');
      if (current) {
        const compressed = join(dir, 'collection.anki21b');
        await pipeline(createReadStream(collectionPath), createZstdCompress(), createWriteStream(compressed));
        zip.addFile(compressed, 'collection.anki21b', { compress: false });
      } else {
        zip.addFile(collectionPath, 'collection.anki21');
      }
    }

    const legacyMap: Record<string, string> = {};
    const entries = new ProtoWriter();
    let index = 0;
    for (const media of collection.media) {
      const name = String(index++);
      if (!current) {
        legacyMap[name] = media.name;
        if (media.path) zip.addFile(media.path, name, { compress: false });
        else zip.addBuffer(Buffer.from(media.data ?? new Uint8Array()), name, { compress: false });
        continue;
      }
      // MediaEntries.MediaEntry {name = 1, size = 2, sha1 = 3}; the file itself zstd-compressed.
      const data = media.path ? await readFile(media.path) : Buffer.from(media.data ?? new Uint8Array());
      const sha1 = createHash('sha1').update(data).digest();
      entries.bytes(1, new ProtoWriter().string(1, media.name).varint(2, data.length).bytes(3, sha1).finish());
      const file = join(dir, `m${name}`);
      await writeFile(file, zstdCompressSync(data));
      zip.addFile(file, name, { compress: false });
    }
    if (current) {
      zip.addBuffer(zstdCompressSync(entries.finish()), 'media', { compress: false });
      zip.addBuffer(Buffer.from(new ProtoWriter().varint(1, 3).finish()), 'meta', { compress: false });
    } else {
      zip.addBuffer(Buffer.from(JSON.stringify(legacyMap)), 'media');
    }
    zip.end();
    await done;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A whole opened collection as writer input, read lazily: re-exporting a package without loading it. */
export function collectionOf(reader: {
  created: number;
  noteTypes(): AnkiNoteType[];
  decks(): AnkiDeck[];
  notes(): Iterable<AnkiNote[]>;
  cards(): Iterable<AnkiCard[]>;
  revlog(): Iterable<AnkiRevlog[]>;
  media(): { name: string; path: string }[];
}): CollectionInput {
  const flat = function* <T>(batches: Iterable<T[]>) {
    for (const batch of batches) yield* batch;
  };
  return {
    created: reader.created,
    noteTypes: reader.noteTypes(),
    decks: reader.decks(),
    notes: flat(reader.notes()),
    cards: flat(reader.cards()),
    revlog: flat(reader.revlog()),
    media: reader.media().map(({ name, path }) => ({ name, path })),
  };
}
