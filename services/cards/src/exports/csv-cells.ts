// A CSV cell that a spreadsheet opens as text, never runs as a formula (CSV injection, per OWASP's
// guidance): a cell beginning with =, +, -, @, a tab or a carriage return gets an apostrophe in front, the
// spreadsheets' own "this is text" mark, so `=HYPERLINK(…)` on a card's front stays words. The mark is
// reversible: a cell that already begins with apostrophes before such a character gets one more, so
// `cellText` (which Engram's CSV import applies) gives back exactly what the card held.
import { type CsvExportCard, csvTag } from '@engram/anki/csv-export';

/** Text a spreadsheet would run, with any apostrophes already before it. */
const RUNNABLE = /^'*[=+\-@\t\r]/;
/** A cell marked by `spreadsheetCell`. */
const MARKED = /^'+[=+\-@\t\r]/;

export const spreadsheetCell = (text: string) => (RUNNABLE.test(text) ? `'${text}` : text);

/** The text a cell written by `spreadsheetCell` holds (a cell without the mark is its own text). */
export const cellText = (cell: string) => (MARKED.test(cell) ? cell.slice(1) : cell);

/** A card as its CSV row shows it: each side, and each tag (any of them may begin the tags cell). */
export function spreadsheetCard(card: CsvExportCard): CsvExportCard {
  return {
    type: card.type,
    front: spreadsheetCell(card.front),
    back: spreadsheetCell(card.back),
    tags: card.tags.map((tag) => spreadsheetCell(csvTag(tag))),
  };
}
