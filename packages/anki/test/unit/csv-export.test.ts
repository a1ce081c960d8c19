// A CSV export read back by Engram's own CSV import (the cards service's reader and row mapping, imported
// from its source for this test only) gives the same cards: quoting, line breaks, cloze, tags and types.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { csvRows, previewCsv } from '../../../../services/cards/src/imports/csv.ts';
import { cardOfRow } from '../../../../services/cards/src/imports/csv-cards.ts';
import { type CsvExportCard, createCsvExport, csvField, csvTag } from '../../src/csv-export.ts';
import { scratchDir } from '../helpers.ts';

const { dir, cleanup } = scratchDir();
afterAll(cleanup);

const CARDS: CsvExportCard[] = [
  { type: 'basic', front: 'What is 2 + 2?', back: 'Four', tags: ['maths', 'Languages::Spanish'] },
  { type: 'reversed', front: 'casa', back: 'house, home', tags: [] },
  {
    type: 'cloze',
    front: 'The {{c1::capital::a city}} of *France* is {{c2::Paris}}.',
    back: 'Extra "quoted" text;\nwith a second line\r\nand a third',
    tags: ['geo'],
  },
  { type: 'basic', front: '"Quoted" front, with comma', back: 'tab\there | pipe', tags: ['my tag', 'a,b;c'] },
  { type: 'basic', front: 'émoji 🎉 and ünïcode', back: '```\ncode, block\n```', tags: ['Ümlaut'] },
];

describe('csvField', () => {
  it('quotes what RFC 4180 asks for, and only that', () => {
    expect(['plain', 'a,b', 'say "hi"', 'two\nlines', ' padded'].map(csvField)).toEqual([
      'plain',
      '"a,b"',
      '"say ""hi"""',
      '"two\nlines"',
      '" padded"',
    ]);
    expect(['my tag', 'a,b;c', 'Parent::Child'].map(csvTag)).toEqual(['my_tag', 'a_b_c', 'Parent::Child']);
  });
});

describe('CSV export → Engram CSV import', () => {
  it('reads back the same cards', async () => {
    const file = join(dir, 'cards.csv');
    const exported = createCsvExport(file);
    for (const card of CARDS) await exported.addCard(card);
    expect(await exported.finish()).toBe(CARDS.length);
    expect(readFileSync(file, 'utf8').startsWith('\uFEFFfront,back,tags,type\r\n')).toBe(true);

    const preview = await previewCsv(file);
    expect({ encoding: preview.encoding, delimiter: preview.delimiter, header: preview.header }).toEqual({
      encoding: 'utf-8',
      delimiter: ',',
      header: true,
    });
    const role = (name: string) => preview.columns.find((column) => column.role === name)?.index;
    const mapping = { front: role('front')!, back: role('back')!, tags: role('tags'), type: role('type') };
    expect(mapping).toEqual({ front: 0, back: 1, tags: 2, type: 3 });
    const read = [];
    for await (const { fields } of csvRows(file, preview)) read.push(cardOfRow(fields, mapping));
    expect(read).toEqual(
      CARDS.map((card) => ({ card: { ...card, back: card.back.trim(), tags: card.tags.map(csvTag) } })),
    );
  });

  it('an empty export is a header only; abort removes the file', async () => {
    const file = join(dir, 'empty.csv');
    const exported = createCsvExport(file);
    expect(await exported.finish()).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('\uFEFFfront,back,tags,type\r\n');
    const aborted = join(dir, 'aborted.csv');
    const stopped = createCsvExport(aborted);
    await stopped.addCard(CARDS[0]!);
    await stopped.abort();
    expect(() => readFileSync(aborted)).toThrow();
  });

  it('leaves no file when aborted at once, before the file is even open', async () => {
    const paths = Array.from({ length: 100 }, (_, i) => join(dir, `at-once-${i}.csv`));
    for (const path of paths) await createCsvExport(path).abort();
    // An open still under way would create its file after the abort answered.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(paths.filter((path) => existsSync(path))).toEqual([]);
  });
});
