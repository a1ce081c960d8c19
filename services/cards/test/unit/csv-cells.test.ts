// A CSV export's cells as a spreadsheet opens them: a cell that would run as a formula (it begins with =, +, -, @,
// a tab or a carriage return) is marked as text with an apostrophe, and the mark comes off again exactly.
import { describe, expect, it } from 'vitest';
import { cellText, spreadsheetCard, spreadsheetCell } from '../../src/exports/csv-cells.js';

const RUNNABLE_STARTS = ['=', '+', '-', '@', '\t', '\r'];

describe('a CSV cell for a spreadsheet', () => {
  it('marks text a spreadsheet would run with an apostrophe, and leaves other text as it is', () => {
    expect(spreadsheetCell('=HYPERLINK("https://evil.example","Click me")')).toBe(
      `'=HYPERLINK("https://evil.example","Click me")`,
    );
    for (const start of RUNNABLE_STARTS) expect(spreadsheetCell(`${start}1+1`)).toBe(`'${start}1+1`);
    for (const text of ['', 'hola', 'x = 1', ' =1', "it's", "'quoted", '1-2', '#tag', '{{c1::=}}']) {
      expect(spreadsheetCell(text)).toBe(text);
    }
  });

  it('never begins a cell with what a spreadsheet runs, and gives back exactly the text it marked', () => {
    const texts = ['=1', "'=1", "''=1", "'", "''", "'x", '-', '@', "'\t", 'plain', '', "''-'=x"];
    for (const start of ['', "'", "''"]) {
      for (const runnable of [...RUNNABLE_STARTS, 'a', "'"]) texts.push(`${start}${runnable}rest`);
    }
    for (const text of texts) {
      const cell = spreadsheetCell(text);
      expect(
        RUNNABLE_STARTS.some((start) => cell.startsWith(start)),
        JSON.stringify(cell),
      ).toBe(false);
      expect(cellText(cell), JSON.stringify(text)).toBe(text);
    }
  });

  it("marks a card's front, back and each of its tags, whichever begins the tags cell", () => {
    expect(
      spreadsheetCard({ type: 'basic', front: '-5 °C', back: '@noon', tags: ['+urgent', 'plain', 'two words'] }),
    ).toEqual({
      type: 'basic',
      front: "'-5 °C",
      back: "'@noon",
      tags: ["'+urgent", 'plain', 'two_words'],
    });
  });
});
