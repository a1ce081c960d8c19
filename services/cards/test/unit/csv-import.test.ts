// Reading a CSV or TSV file of cards as apps export them: the encoding and delimiter found from the file,
// a header recognised by its names, each column's role guessed, rows read with the line they start on, and
// each row turned into a card or a problem in the card rules' words.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvRows, previewCsv } from '../../src/imports/csv.js';
import { cardOfRow, sidesOf, tagNamesOf } from '../../src/imports/csv-cards.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'engram-csv-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function file(name: string, content: string | Buffer) {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

async function rowsOf(path: string) {
  const preview = await previewCsv(path);
  const rows: { line: number; fields: string[] }[] = [];
  for await (const row of csvRows(path, preview)) rows.push(row);
  return { preview, rows };
}

describe('reading a file of cards', () => {
  it("reads a spreadsheet's CSV with a header, quoted fields and a line break inside a field", async () => {
    const path = await file(
      'deck.csv',
      'Question,Answer,Tags\n"Capital of France","Paris, on the Seine",geo europe\n"Two\nlines",2,\n',
    );
    const { preview, rows } = await rowsOf(path);
    expect(preview).toMatchObject({ encoding: 'utf-8', delimiter: ',', header: true });
    expect(preview.columns.map((column) => column.role)).toEqual(['front', 'back', 'tags']);
    expect(rows).toEqual([
      { line: 2, fields: ['Capital of France', 'Paris, on the Seine', 'geo europe'] },
      { line: 3, fields: ['Two\nlines', '2', ''] },
    ]);
  });

  it("reads Anki's own text export: its header lines give the separator, the columns and the tags column", async () => {
    const path = await file(
      'anki.txt',
      '#separator:tab\n#html:true\n#columns:Front\tBack\tTags\n#tags column:3\nhola\thello\tspanish\n#hashtag\tnot a header\t\n',
    );
    const { preview, rows } = await rowsOf(path);
    expect(preview).toMatchObject({ delimiter: '\t', header: false, skipLines: 4 });
    expect(preview.columns).toEqual([
      { index: 0, name: 'Front', role: 'front' },
      { index: 1, name: 'Back', role: 'back' },
      { index: 2, name: 'Tags', role: 'tags' },
    ]);
    expect(rows).toEqual([
      { line: 5, fields: ['hola', 'hello', 'spanish'] },
      { line: 6, fields: ['#hashtag', 'not a header', ''] },
    ]);
  });

  it("reads Quizlet's export: term, a tab, definition, no header, in the Windows code page", async () => {
    const path = await file('quizlet.txt', iconv.encode('hola\thello\nadiós\tgoodbye\n', 'latin1'));
    const { preview, rows } = await rowsOf(path);
    expect(preview).toMatchObject({ delimiter: '\t', header: false });
    expect(preview.columns.map((column) => column.role)).toEqual(['front', 'back']);
    expect(rows.map((row) => row.fields)).toEqual([
      ['hola', 'hello'],
      ['adiós', 'goodbye'],
    ]);
  });

  it("reads Mochi's cards: one content column, the sides split at a line of ---, the deck beside it", async () => {
    const path = await file(
      'mochi.csv',
      'content,deck,tags\n"# Capital of France\n---\nParis",Geography,europe\n"What is 2 + 2?\n\n---\n**4**",Maths,\n',
    );
    const { preview, rows } = await rowsOf(path);
    expect(preview).toMatchObject({ delimiter: ',', header: true });
    expect(preview.columns.map((column) => column.role)).toEqual(['front', 'tags', 'ignore']);
    expect(rows.map((row) => row.fields[0])).toEqual([
      '# Capital of France\n---\nParis',
      'What is 2 + 2?\n\n---\n**4**',
    ]);
  });

  it('reads a UTF-16 file with its byte-order mark, semicolon-separated as some spreadsheets save it', async () => {
    const path = await file(
      'semi.csv',
      Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode('front;back\nçà;ü\n', 'utf-16le')]),
    );
    const { preview, rows } = await rowsOf(path);
    expect(preview).toMatchObject({ encoding: 'utf-16le', delimiter: ';', header: true });
    expect(rows.map((row) => row.fields)).toEqual([['çà', 'ü']]);
  });
});

describe('a row as a card', () => {
  const mapping = { front: 0, back: 1, tags: 2, type: 3 };

  it('takes the front, back, tags and type, and makes a front with a deletion a cloze when no type is given', () => {
    expect(cardOfRow(['Capital of France', 'Paris', 'geo, europe; geo', ''], mapping)).toEqual({
      card: { type: 'basic', front: 'Capital of France', back: 'Paris', tags: ['geo', 'europe'] },
    });
    expect(cardOfRow(['{{c1::Paris}} is in France', '', '', ''], mapping)).toEqual({
      card: { type: 'cloze', front: '{{c1::Paris}} is in France', back: '', tags: [] },
    });
    expect(cardOfRow(['hola', 'hello', 'Languages::Spanish', 'Basic (and reversed card)'], mapping)).toMatchObject({
      card: { type: 'reversed', tags: ['Languages::Spanish'] },
    });
    expect(cardOfRow(['say {{c1::x}}', 'y', '', 'basic'], mapping)).toMatchObject({ card: { type: 'basic' } });
  });

  it('makes a typed-answer card of a row whose type is typed, or Anki’s "Basic (type in the answer)"', () => {
    expect(cardOfRow(['Capital of France', 'Paris', '', 'typed'], mapping)).toEqual({
      card: { type: 'typed', front: 'Capital of France', back: 'Paris', tags: [] },
    });
    expect(cardOfRow(['Capital of Spain', 'Madrid', '', 'Basic (type in the answer)'], mapping)).toMatchObject({
      card: { type: 'typed' },
    });
    expect(cardOfRow(['Capital of Italy', '', '', 'typed'], mapping)).toEqual({
      problem: { reason: 'backEmpty', values: {}, message: 'The back is empty.' },
    });
  });

  it('names what is wrong with a row that cannot be a card', () => {
    expect(cardOfRow(['', 'Paris', '', ''], mapping)).toEqual({
      problem: { reason: 'frontEmpty', values: {}, message: 'The front is empty.' },
    });
    expect(cardOfRow(['Capital', '', '', ''], mapping)).toEqual({
      problem: { reason: 'backEmpty', values: {}, message: 'The back is empty.' },
    });
    expect(cardOfRow(['{{c0::x}}', '', '', 'cloze'], mapping)).toEqual({
      problem: { reason: 'clozeNumberZero', values: {}, message: expect.stringContaining('{{c0::') },
    });
    expect(cardOfRow(['a', 'b', '', 'mind map'], mapping)).toEqual({
      problem: {
        reason: 'typeUnknown',
        values: { type: 'mind map' },
        message: 'The type "mind map" is not basic, reversed, cloze, typed or occlusion.',
      },
    });
    // A note is written in its note type's fields, which a row has not.
    expect(cardOfRow(['a', 'b', '', 'note'], mapping)).toMatchObject({ problem: { reason: 'typeUnknown' } });
    // An occlusion row (as Engram's own CSV export writes one) needs its picture and shapes.
    expect(cardOfRow(['a', 'b', '', 'image occlusion'], mapping)).toEqual({
      problem: {
        reason: 'occlusionMissing',
        values: {},
        message: 'An occlusion card needs its picture and shapes in an occlusion block.',
      },
    });
    expect(cardOfRow(['x'.repeat(2001), 'b', '', ''], mapping)).toEqual({
      problem: {
        reason: 'frontTooLong',
        values: { max: '2000' },
        message: 'The front is longer than 2,000 characters.',
      },
    });
  });

  it('splits a front column at its first line of dashes when no column is the back', () => {
    const mochi = { front: 0, tags: 1 };
    expect(cardOfRow(['# Capital of France\n---\nParis', 'geo'], mochi)).toEqual({
      card: { type: 'basic', front: '# Capital of France', back: 'Paris', tags: ['geo'] },
    });
    expect(cardOfRow(['Q\r\n  ----  \r\nA\n---\nmore', ''], mochi)).toMatchObject({
      card: { front: 'Q', back: 'A\n---\nmore' },
    });
    expect(cardOfRow(['{{c1::Paris}} is in France', ''], mochi)).toMatchObject({ card: { type: 'cloze', back: '' } });
    expect(cardOfRow(['Capital of France', ''], mochi)).toEqual({
      problem: {
        reason: 'backEmptySplit',
        values: {},
        message: 'The back is empty: with no back column, a line of --- parts the front from the back.',
      },
    });
    expect(sidesOf('a --- b')).toEqual(['a --- b', '']);
    expect(sidesOf('front\n---')).toEqual(['front', '']);
  });

  it('reads a cell marked as text for spreadsheets without the mark, as Engram and other careful exports write it', () => {
    expect(cardOfRow(['\'=HYPERLINK("https://example.com")', "'-5 °C", "'@home '+1 plain", ''], mapping)).toEqual({
      card: {
        type: 'basic',
        front: '=HYPERLINK("https://example.com")',
        back: '-5 °C',
        tags: ['@home', '+1', 'plain'],
      },
    });
    // One apostrophe is the mark; what is left was the card's own text. An apostrophe before anything else is text.
    expect(cardOfRow(["''=1+1", "'quoted", "''-x", ''], mapping)).toMatchObject({
      card: { front: "'=1+1", back: "'quoted", tags: ["'-x"] },
    });
    expect(cardOfRow(["'=Q\n---\nA", ''], { front: 0, tags: 1 })).toMatchObject({ card: { front: '=Q', back: 'A' } });
  });

  it('keeps tag names within their limits, once each', () => {
    expect(tagNamesOf(`a b a ${'t'.repeat(50)}`)).toEqual(['a', 'b', 't'.repeat(40)]);
    expect(tagNamesOf(Array.from({ length: 30 }, (_, i) => `t${i}`).join(' '))).toHaveLength(20);
  });
});
