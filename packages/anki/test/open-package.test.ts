// openPackage on every layout Anki writes, and on every kind of hostile or broken file: each refused with
// its code, and no temp file left behind.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { zstdCompressSync, zstdDecompressSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { ANKI_PACKAGE_ERRORS, AnkiPackageError } from '../src/errors.ts';
import {
  GENERATED_DECKS,
  GENERATED_NOTE_TYPES,
  generateCollection,
  generatedMediaName,
  generatedNote,
  generatedRows,
} from '../src/generate-collection.ts';
import { openPackage } from '../src/open-package.ts';
import { LEGACY_CONF, legacyDecks, legacyModels, SCHEMA11_SQL } from '../src/schema.ts';
import type { AnkiLayout } from '../src/types.ts';
import { writePackage } from '../src/write-package.ts';
import { readZip, scratchDir, writeZip } from './helpers.ts';

const { dir, cleanup } = scratchDir();
afterAll(cleanup);

const collect = <T>(batches: Iterable<T[]>) => [...batches].flat();

describe('every layout reads back what was generated', () => {
  for (const layout of ['anki2', 'anki21', 'anki21b'] as AnkiLayout[]) {
    it(layout, async () => {
      const options = { layout, notes: 41, reviewsPerCard: 2.5, media: 6, withFsrsState: true, suspendEvery: 5 };
      const file = join(dir, `roundtrip.${layout}.apkg`);
      await generateCollection(file, options);
      const reader = await openPackage(file);
      try {
        expect(reader.layout).toBe(layout);
        expect(reader.schema).toBe(layout === 'anki21b' ? 18 : 11);
        expect(reader.noteTypes().sort((a, b) => a.id - b.id)).toEqual(GENERATED_NOTE_TYPES);
        expect(reader.decks().sort((a, b) => a.id - b.id)).toEqual(GENERATED_DECKS);
        const expected = generatedRows(options);
        expect(collect(reader.notes(7))).toEqual([...expected.notes]);
        expect(collect(reader.cards(7))).toEqual([...expected.cards]);
        expect(collect(reader.revlog(7))).toEqual([...expected.revlog]);
        expect(reader.counts()).toEqual({ notes: 41, cards: 71, revlog: collect(reader.revlog()).length });
        const media = reader.media();
        expect(media.map((m) => m.name)).toEqual([0, 1, 2, 3, 4, 5].map(generatedMediaName));
        for (const m of media) expect(readFileSync(m.path).length).toBe(m.size);
        const bundles = collect(reader.bundles(10));
        expect(bundles.map((b) => b.note)).toEqual(collect(reader.notes()));
        for (const { note, cards } of bundles) {
          for (const { card, revlog } of cards) {
            expect(card.noteId).toBe(note.id);
            expect(revlog).toEqual(reader.revlogFor(card.id));
          }
        }
        expect(bundles[0]!.note).toEqual(generatedNote(0, 6));
      } finally {
        reader.close();
      }
    });
  }
});

/** The reason `file` is refused, after checking no temp file stays behind. */
async function refusal(file: string, limits = {}): Promise<string> {
  const temp = join(dir, `temp-${Math.random().toString(36).slice(2)}`);
  (await import('node:fs')).mkdirSync(temp);
  try {
    const reader = await openPackage(file, limits, { tempDir: temp });
    reader.close();
    return 'accepted';
  } catch (error) {
    expect(error).toBeInstanceOf(AnkiPackageError);
    const { code, message } = error as AnkiPackageError;
    expect(message).toBe(ANKI_PACKAGE_ERRORS[code]);
    return code;
  } finally {
    expect(readdirSync(temp)).toEqual([]);
  }
}

/** A legacy collection file with `notes` rows of raw SQL values. */
function legacyCollection(path: string, fill?: (db: DatabaseSync) => void): void {
  const db = new DatabaseSync(path);
  db.exec(SCHEMA11_SQL);
  db.prepare("INSERT INTO col VALUES (1, 0, 0, 0, 11, 0, 0, 0, ?, ?, ?, '{}', '{}')").run(
    LEGACY_CONF,
    legacyModels(GENERATED_NOTE_TYPES, 1, 0),
    legacyDecks(GENERATED_DECKS, 0),
  );
  fill?.(db);
  db.close();
}

describe('a collection as Anki 2.1.50 and later write it', () => {
  it('reads names declared COLLATE unicase (Anki’s own collation) in a file marked for write-ahead logging', async () => {
    // Anki's schema 18 declares its name columns `COLLATE unicase`, a collation only Anki registers, keeps
    // Unicode names, and leaves the file's header marked WAL. Our writer declares NOCASE: this turns its file
    // into what Anki writes.
    const file = join(dir, 'as-anki-writes.apkg');
    const names = { deck: 'Ärzte::Übungen', tag: 'Straße' };
    await writePackage(
      join(dir, 'ours.apkg'),
      {
        created: 0,
        noteTypes: GENERATED_NOTE_TYPES,
        decks: [...GENERATED_DECKS, { id: 77, name: names.deck }],
        notes: [{ ...generatedNote(0, 0), tags: [names.tag] }],
        cards: [],
        revlog: [],
        media: [],
      },
      { layout: 'anki21b' },
    );
    const entries = await readZip(join(dir, 'ours.apkg'));
    const collection = entries.find((entry) => entry.name === 'collection.anki21b')!;
    const sqlite = join(dir, 'as-anki.sqlite');
    writeFileSync(sqlite, zstdDecompressSync(collection.data!));
    const db = new DatabaseSync(sqlite);
    db.exec("INSERT INTO tags VALUES ('Straße', 0, 0, NULL), ('ärzte', 0, 0, NULL), ('Zebra', 0, 0, NULL)");
    db.exec(
      'CREATE UNIQUE INDEX idx_notetypes_name ON notetypes (name); CREATE UNIQUE INDEX idx_decks_name ON decks (name)',
    );
    db.enableDefensive(false);
    db.exec('PRAGMA writable_schema = ON');
    db.exec("UPDATE sqlite_master SET sql = replace(sql, 'COLLATE NOCASE', 'COLLATE unicase')");
    db.exec('PRAGMA writable_schema = OFF');
    db.close();
    const bytes = readFileSync(sqlite);
    bytes[18] = 2;
    bytes[19] = 2;
    collection.data = zstdCompressSync(bytes);
    await writeZip(file, entries);

    // The old reader refused every such package as damaged ("no such collation sequence: unicase").
    const reader = await openPackage(file);
    try {
      expect(reader.layout).toBe('anki21b');
      expect(reader.decks().map((deck) => deck.name)).toContain(names.deck);
      expect(
        reader
          .noteTypes()
          .map((type) => type.name)
          .sort(),
      ).toEqual(GENERATED_NOTE_TYPES.map((type) => type.name).sort());
      expect(collect(reader.notes()).map((note) => note.tags)).toEqual([[names.tag]]);
    } finally {
      reader.close();
    }
  });
});

describe('hostile and broken files are refused with a clear message', () => {
  it('not a zip', async () => {
    const file = join(dir, 'text.apkg');
    writeFileSync(file, 'just some text, not a zip at all');
    expect(await refusal(file)).toBe('notZip');
    writeFileSync(file, '');
    expect(await refusal(file)).toBe('notZip');
  });

  it('a zip bomb: a small entry that unpacks to a huge one', async () => {
    const file = join(dir, 'bomb.apkg');
    await writeZip(file, [{ name: 'collection.anki2', data: Buffer.alloc(64 * 1024 ** 2) }]);
    expect(readFileSync(file).length).toBeLessThan(1024 ** 2);
    expect(await refusal(file)).toBe('zipBomb');
    // Under the ratio limit but over the total.
    expect(await refusal(file, { maxEntryRatio: 1e9, maxTotalBytes: 1024 ** 2 })).toBe('zipBomb');
  });

  it('a zip that lies about an entry size', async () => {
    const file = join(dir, 'liar.apkg');
    await writeZip(file, [{ name: 'collection.anki2', data: Buffer.alloc(4 * 1024 ** 2) }]);
    // Declared sizes patched down to 1000 bytes in both headers; the data still inflates to 4 MiB.
    const zip = readFileSync(file);
    const size = Buffer.alloc(4);
    size.writeUInt32LE(4 * 1024 ** 2);
    const small = Buffer.alloc(4);
    small.writeUInt32LE(1000);
    let at = zip.indexOf(size);
    while (at !== -1) {
      small.copy(zip, at);
      at = zip.indexOf(size, at + 4);
    }
    writeFileSync(file, zip);
    expect(['zipBomb', 'notZip']).toContain(await refusal(file));
  });

  it('too many entries', async () => {
    const file = join(dir, 'many.apkg');
    const collection = join(dir, 'many.anki2');
    legacyCollection(collection);
    await writeZip(file, [
      { name: 'collection.anki2', path: collection },
      ...Array.from({ length: 20 }, (_, i) => ({ name: String(i), data: Buffer.from('x') })),
    ]);
    expect(await refusal(file, { maxEntries: 10 })).toBe('tooManyFiles');
  });

  it('../ in a media name (in the media map, and as a zip entry)', async () => {
    const collection = join(dir, 'media.anki2');
    legacyCollection(collection);
    const mapped = join(dir, 'mapped.apkg');
    await writeZip(mapped, [
      { name: 'collection.anki2', path: collection },
      { name: 'media', data: Buffer.from(JSON.stringify({ '0': '../escape.mp3' })) },
      { name: '0', data: Buffer.from('x') },
    ]);
    expect(await refusal(mapped)).toBe('unsafeName');
    for (const evil of ['../x', '/etc/x', 'a\\b', 'C:x']) {
      const file = join(dir, 'entry.apkg');
      const placeholder = 'Z'.repeat(evil.length);
      await writeZip(file, [
        { name: 'collection.anki2', path: collection },
        { name: placeholder, data: Buffer.from('x') },
      ]);
      const zip = readFileSync(file);
      let at = zip.indexOf(placeholder);
      while (at !== -1) {
        zip.write(evil, at, 'latin1');
        at = zip.indexOf(placeholder, at + 1);
      }
      writeFileSync(file, zip);
      expect(await refusal(file), evil).toMatch(/unsafeName|notZip/);
    }
  });

  it('a media file over the size limit', async () => {
    const collection = join(dir, 'bigmedia.anki2');
    legacyCollection(collection);
    const file = join(dir, 'bigmedia.apkg');
    await writeZip(file, [
      { name: 'collection.anki2', path: collection },
      { name: 'media', data: Buffer.from(JSON.stringify({ '0': 'big.png' })) },
      { name: '0', data: Buffer.alloc(2 * 1024 ** 2, 7), compress: false },
    ]);
    expect(await refusal(file, { maxMediaBytes: 1024 ** 2 })).toBe('mediaTooLarge');
  });

  it('a corrupt database', async () => {
    const file = join(dir, 'corrupt.apkg');
    const garbage = Buffer.alloc(64 * 1024);
    for (let i = 0; i < garbage.length; i++) garbage[i] = (i * 7919) % 251;
    await writeZip(file, [{ name: 'collection.anki2', data: garbage }]);
    expect(await refusal(file)).toBe('corruptDatabase');
    // A real SQLite file cut in half.
    const whole = join(dir, 'whole.anki2');
    legacyCollection(whole, (db) => {
      const insert = db.prepare("INSERT INTO notes VALUES (?, ?, 1, 0, 0, '', ?, '', 0, 0, '')");
      db.exec('BEGIN');
      for (let i = 0; i < 2000; i++) insert.run(i + 1, `g${i}`, `field ${i} `.repeat(20));
      db.exec('COMMIT');
    });
    const bytes = readFileSync(whole);
    await writeZip(file, [{ name: 'collection.anki2', data: bytes.subarray(0, Math.floor(bytes.length / 2)) }]);
    expect(await refusal(file)).toBe('corruptDatabase');
    // A current package whose zstd stream is not one.
    await writeZip(file, [
      { name: 'collection.anki21b', data: bytes },
      { name: 'meta', data: Buffer.from([8, 3]) },
    ]);
    expect(await refusal(file)).toBe('corruptDatabase');
  });

  it('a 300 MB field', { timeout: 120_000 }, async () => {
    const collection = join(dir, 'huge.anki2');
    legacyCollection(collection, (db) =>
      db.exec(`INSERT INTO notes VALUES (1, 'g', 1, 0, 0, '', zeroblob(${300 * 1024 ** 2}), '', 0, 0, '')`),
    );
    const file = join(dir, 'huge.apkg');
    await writeZip(file, [{ name: 'collection.anki2', path: collection, compress: false }]);
    (await import('node:fs')).rmSync(collection);
    expect(await refusal(file)).toBe('fieldTooLarge');
  });

  it('an unknown layout', async () => {
    const file = join(dir, 'unknown.apkg');
    await writeZip(file, [{ name: 'notes.txt', data: Buffer.from('hello') }]);
    expect(await refusal(file)).toBe('unknownLayout');
    const collection = join(dir, 'future.anki2');
    legacyCollection(collection);
    await writeZip(file, [
      { name: 'collection.anki2', path: collection },
      { name: 'meta', data: Buffer.from([8, 9]) },
    ]);
    expect(await refusal(file)).toBe('unknownLayout');
    const db = new DatabaseSync(collection);
    db.exec('UPDATE col SET ver = 99');
    db.close();
    await writeZip(file, [{ name: 'collection.anki2', path: collection }]);
    expect(await refusal(file)).toBe('unknownLayout');
  });
});
