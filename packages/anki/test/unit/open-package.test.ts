// openPackage on every layout Anki writes, and on every kind of hostile or broken file: each refused with
// its code, and no temp file left behind.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { zstdCompressSync, zstdDecompressSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { ANKI_PACKAGE_ERRORS, AnkiPackageError } from '../../src/errors.ts';
import {
  GENERATED_DECKS,
  GENERATED_NOTE_TYPES,
  generateCollection,
  generatedMediaName,
  generatedNote,
  generatedRows,
} from '../../src/generate-collection.ts';
import { openPackage } from '../../src/open-package.ts';
import type { AnkiReader } from '../../src/reader.ts';
import { LEGACY_CONF, legacyDecks, legacyModels, SCHEMA11_SQL } from '../../src/schema.ts';
import type { AnkiLayout, AnkiNoteBundle } from '../../src/types.ts';
import { writePackage } from '../../src/write-package.ts';
import { readZip, scratchDir, writeZip } from '../helpers.ts';

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

/** The bundles of `file` (opened with `limits`) in the batches `read` asks for. */
async function readBundles(file: string, read: (reader: AnkiReader) => Iterable<AnkiNoteBundle[]>, limits = {}) {
  const reader = await openPackage(file, limits);
  try {
    return [...read(reader)];
  } finally {
    reader.close();
  }
}

/** A legacy package of `notes` rows, each `[fields, reviews]`: one Basic card per note, `reviews` reviews each. */
async function packageOfNotes(name: string, notes: [string, number][]) {
  const collection = join(dir, `${name}.anki2`);
  legacyCollection(collection, (db) => {
    const note = db.prepare("INSERT INTO notes VALUES (?, ?, ?, 0, 0, '', ?, '', 0, 0, '')");
    const card = db.prepare("INSERT INTO cards VALUES (?, ?, 1, 0, 0, 0, 2, 2, 10, 5, 2500, 1, 0, 0, 0, 0, 0, '')");
    const review = db.prepare('INSERT INTO revlog VALUES (?, ?, 0, 3, 5, 1, 2500, 4000, 1)');
    db.exec('BEGIN');
    notes.forEach(([fields, reviews], i) => {
      note.run(i + 1, `g${i}`, GENERATED_NOTE_TYPES[0]!.id, fields);
      card.run(i + 1, i + 1);
      for (let r = 0; r < reviews; r++) review.run(1_700_000_000_000 + i * 100_000 + r, i + 1);
    });
    db.exec('COMMIT');
  });
  const file = join(dir, `${name}.apkg`);
  await writeZip(file, [{ name: 'collection.anki2', path: collection, compress: false }]);
  (await import('node:fs')).rmSync(collection);
  return file;
}

describe('a note too large for the limit is left out alone, never read', () => {
  it('a 300 MB field: the note is marked too large, the others read', { timeout: 120_000 }, async () => {
    const collection = join(dir, 'huge.anki2');
    legacyCollection(collection, (db) => {
      const type = GENERATED_NOTE_TYPES[0]!.id;
      db.exec(`INSERT INTO notes VALUES (1, 'g1', ${type}, 0, 0, '', 'front\x1fback', '', 0, 0, '')`);
      db.exec(`INSERT INTO notes VALUES (2, 'g2', ${type}, 0, 0, '', zeroblob(${300 * 1024 ** 2}), '', 0, 0, '')`);
      db.exec(`INSERT INTO notes VALUES (3, 'g3', ${type}, 0, 0, '', 'after\x1fit', '', 0, 0, '')`);
    });
    const file = join(dir, 'huge.apkg');
    await writeZip(file, [{ name: 'collection.anki2', path: collection, compress: false }]);
    (await import('node:fs')).rmSync(collection);
    // The reader's connection lets SQLite build no value over 64 MB: reading the field would fail, not load it.
    const notes = (await readBundles(file, (reader) => reader.bundles())).flat().map((bundle) => bundle.note);
    expect(notes.map((note) => [note.id, note.fields, note.tooLarge])).toEqual([
      [1, ['front', 'back'], undefined],
      [2, [], true],
      [3, ['after', 'it'], undefined],
    ]);
  });

  it('a note whose review history passes the limit is left out without its cards and reviews', async () => {
    const file = await packageOfNotes('long-history', [
      ['a\x1fb', 3],
      ['c\x1fd', 2_000],
      ['e\x1ff', 1],
    ]);
    const bundles = (await readBundles(file, (reader) => reader.bundles(), { maxNoteBytes: 100_000 })).flat();
    expect(bundles.map(({ note, cards }) => [note.id, note.tooLarge, cards.map((c) => c.revlog.length)])).toEqual([
      [1, undefined, [3]],
      [2, true, []],
      [3, undefined, [1]],
    ]);
  });
});

describe('batches are bounded by bytes as well as by notes', () => {
  it('a batch stops at its byte budget: long notes, or long histories, come in more batches', async () => {
    const longNotes = await packageOfNotes(
      'long-notes',
      Array.from({ length: 40 }, (_, i) => [`${i} ${'x'.repeat(10_000)}\x1fback`, 0]),
    );
    const budget = 64 * 1024;
    const batches = await readBundles(longNotes, (reader) => reader.bundles(1000, budget));
    expect(batches.flat()).toHaveLength(40);
    // Each batch reaches the budget with its last note, never more than a note past it.
    expect(batches.length).toBeGreaterThanOrEqual(6);
    for (const batch of batches) {
      const bytes = batch.reduce((sum, { note }) => sum + note.fields.join('\x1f').length + note.guid.length, 0);
      expect(bytes).toBeLessThan(budget + 11_000);
    }
    const longHistories = await packageOfNotes(
      'long-histories',
      Array.from({ length: 40 }, (_, i) => [`${i}\x1fback`, 100]),
    );
    const sizes = (await readBundles(longHistories, (reader) => reader.bundles(1000, budget))).map((b) => b.length);
    expect(sizes.reduce((a, b) => a + b)).toBe(40);
    // 100 reviews of about 128 bytes each: four or five notes fill 64 KB.
    expect(Math.max(...sizes)).toBeLessThanOrEqual(6);
    // Without a byte budget, the count alone decides.
    expect((await readBundles(longNotes, (reader) => reader.bundles(16, 1024 ** 3))).map((b) => b.length)).toEqual([
      16, 16, 8,
    ]);
  });
});

describe('a collection whose schema is not one Anki writes is refused before a row of it is read', () => {
  /** A legacy package whose collection is changed by `alter` after Anki's tables are made. */
  async function alteredPackage(name: string, alter: (db: DatabaseSync) => void) {
    const collection = join(dir, `${name}.anki2`);
    legacyCollection(collection, (db) => {
      db.exec(`INSERT INTO notes VALUES (1, 'g1', ${GENERATED_NOTE_TYPES[0]!.id}, 0, 0, '', 'a', '', 0, 0, '')`);
      alter(db);
    });
    const file = join(dir, `${name}.apkg`);
    await writeZip(file, [{ name: 'collection.anki2', path: collection }]);
    return file;
  }
  /** Anki's notes table made again with `column` in place of its `flds`. */
  const notesWith = (column: string) => (db: DatabaseSync) =>
    db.exec(
      `DROP TABLE notes; ${SCHEMA11_SQL.split(';')
        .find((sql) => sql.includes('CREATE TABLE notes'))!
        .replace('flds text NOT NULL', column)};`,
    );
  /** A schema entry SQLite itself would not let us create, written as a hostile file would hold it. */
  const schemaEntry = (type: string, name: string, sql: string) => (db: DatabaseSync) => {
    db.enableDefensive(false);
    db.exec('PRAGMA writable_schema = ON');
    db.prepare('INSERT INTO sqlite_master VALUES (?, ?, ?, 0, ?)').run(type, name, name, sql);
    db.exec('PRAGMA writable_schema = OFF');
  };

  const cases: [string, string, (db: DatabaseSync) => void][] = [
    [
      "a generated flds that repeats a string to 50 MB a note (the first batch's read would be gigabytes)",
      'schemaGeneratedColumn',
      notesWith("flds text GENERATED ALWAYS AS (printf('%.*c', 50000000, 'x')) VIRTUAL"),
    ],
    ['a stored generated column', 'schemaGeneratedColumn', notesWith('flds text GENERATED ALWAYS AS (guid) STORED')],
    [
      'a view named like Anki’s table',
      'schemaView',
      (db) => db.exec('DROP TABLE notes; CREATE VIEW notes AS SELECT 1 AS id, zeroblob(1000000000) AS flds'),
    ],
    ['a view beside Anki’s tables', 'schemaView', (db) => db.exec('CREATE VIEW due AS SELECT * FROM cards')],
    [
      'a trigger on a table',
      'schemaTrigger',
      (db) => db.exec('CREATE TRIGGER grow AFTER UPDATE ON notes BEGIN UPDATE notes SET flds = flds || flds; END'),
    ],
    [
      'a trigger waiting for a write to our copy',
      'schemaTrigger',
      (db) => db.exec('CREATE TRIGGER grow AFTER INSERT ON graves BEGIN SELECT zeroblob(1000000000); END'),
    ],
    [
      'a full-text virtual table',
      'schemaVirtualTable',
      (db) => db.exec('CREATE VIRTUAL TABLE search USING fts5(flds)'),
    ],
    [
      'an r-tree virtual table',
      'schemaVirtualTable',
      (db) => db.exec('CREATE VIRTUAL TABLE boxes USING rtree(id, x0, x1)'),
    ],
    [
      'a virtual table of an unknown module',
      'schemaVirtualTable',
      schemaEntry('table', 'evil', 'CREATE VIRTUAL TABLE evil USING no_such_module(x)'),
    ],
    [
      'a CHECK that quick_check evaluates on every row',
      'schemaUnknown',
      notesWith("flds text NOT NULL CHECK (length(printf('%.*c', 50000000, flds)) > 0)"),
    ],
    ['a default computed by an expression', 'schemaUnknown', notesWith('flds text DEFAULT (zeroblob(1000))')],
    [
      'an index on an expression',
      'schemaUnknown',
      (db) => db.exec("CREATE INDEX ix_notes_big ON notes (printf('%.*c', 1000, flds))"),
    ],
    [
      'a partial index computing',
      'schemaUnknown',
      (db) => db.exec('CREATE INDEX ix_odd ON notes (id) WHERE length(flds) > 0'),
    ],
    ['a table Anki does not write', 'schemaUnknown', (db) => db.exec('CREATE TABLE extra (x)')],
    ['a column Anki does not write', 'schemaUnknown', (db) => db.exec('ALTER TABLE cards ADD COLUMN extra text')],
  ];
  for (const [what, code, alter] of cases) {
    it(what, async () => {
      expect(await refusal(await alteredPackage(what.replace(/\W+/g, '-'), alter))).toBe(code);
    });
  }

  it('note types and decks heavier than the limit, which are read whole', async () => {
    const file = await alteredPackage('heavy-models', (db) =>
      db.prepare('UPDATE col SET models = ?').run(legacyModels(GENERATED_NOTE_TYPES, 1, 0) + ' '.repeat(200_000)),
    );
    expect(await refusal(file, { maxNoteTypesBytes: 100_000 })).toBe('noteTypesTooLarge');
    expect(await refusal(file)).toBe('accepted');
  });
});
