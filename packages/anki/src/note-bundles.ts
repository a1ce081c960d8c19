// Notes with their cards and review logs, in batches bounded by a count of notes and by bytes: three cursors
// (notes by id, cards by note, review logs by their card's note) are walked side by side, so a batch holds
// exactly its own notes' rows and nothing is read twice. A batch ends once it holds `notes` notes or `bytes`
// bytes as read (each note's text as SQLite measures it, and an estimate of a card's and a review's object),
// whichever comes first: a collection of long notes or long histories comes in smaller batches, never a
// larger heap. A note whose text, cards and reviews together pass `maxNoteBytes` is yielded marked
// `tooLarge`, without them: its rows are counted as they pass, never kept.
import type { DatabaseSync } from 'node:sqlite';
import {
  CARD_COLUMNS,
  cardOf,
  NOTES_SQL,
  noteOf,
  num,
  REVLOG_COLUMNS,
  type Row,
  revlogOf,
  rowsOf,
} from './collection-rows.ts';
import type { AnkiNoteBundle, AnkiRevlog } from './types.ts';

/** About what a card's and a review's objects take once read, beyond a card's `data`. */
export const CARD_BYTES = 256;
export const REVIEW_BYTES = 128;

export interface BundleBudget {
  notes: number;
  bytes: number;
  maxNoteBytes: number;
}

/** A cursor over rows ordered by `nid`, taking those of one note at a time. */
function cursor(rows: Generator<Row>) {
  let next = rows.next();
  const nid = () => (next.done ? undefined : num(next.value.nid));
  return {
    /** Whether its next row belongs to a note before `id` (one the collection does not have). */
    before: (id: number) => (nid() ?? id) < id,
    /** Whether its next row belongs to note `id`. */
    at: (id: number) => nid() === id,
    take(): Row {
      const row = next.value as Row;
      next = rows.next();
      return row;
    },
  };
}

const CARDS_SQL = `SELECT ${CARD_COLUMNS} FROM cards ORDER BY nid, ord, id`;
const REVLOG_SQL = `SELECT ${REVLOG_COLUMNS.split(', ')
  .map((column) => `r.${column}`)
  .join(', ')}, c.nid AS nid
FROM revlog r JOIN cards c ON c.id = r.cid ORDER BY c.nid, c.ord, c.id, r.id`;

export function* noteBundles(db: DatabaseSync, budget: BundleBudget): Generator<AnkiNoteBundle[]> {
  const { maxNoteBytes } = budget;
  const notes = rowsOf(db.prepare(`${NOTES_SQL} ORDER BY id`), [maxNoteBytes]);
  const cards = cursor(rowsOf(db.prepare(CARDS_SQL), [maxNoteBytes]));
  const reviews = cursor(rowsOf(db.prepare(REVLOG_SQL)));
  let batch: AnkiNoteBundle[] = [];
  let batchBytes = 0;
  for (const row of notes) {
    const note = noteOf(row, maxNoteBytes);
    const bundle: AnkiNoteBundle = { note, cards: [] };
    let bytes = note.tooLarge ? 0 : num(row.bytes);
    const tooLarge = () => {
      bundle.note = { ...note, fields: [], tags: [], tooLarge: true };
      bundle.cards = [];
      bytes = 0;
    };
    // Rows of notes the collection does not have (orphans) are passed over.
    while (cards.before(note.id)) cards.take();
    const byCard = new Map<number, AnkiRevlog[]>();
    while (cards.at(note.id)) {
      const cardRow = cards.take();
      if (bundle.note.tooLarge) continue;
      bytes += CARD_BYTES + num(cardRow.dataBytes);
      if (bytes > maxNoteBytes) {
        tooLarge();
        continue;
      }
      const card = cardOf(cardRow);
      const revlog: AnkiRevlog[] = [];
      byCard.set(card.id, revlog);
      bundle.cards.push({ card, revlog });
    }
    while (reviews.before(note.id)) reviews.take();
    while (reviews.at(note.id)) {
      const reviewRow = reviews.take();
      if (bundle.note.tooLarge) continue;
      bytes += REVIEW_BYTES;
      if (bytes > maxNoteBytes) {
        tooLarge();
        continue;
      }
      byCard.get(num(reviewRow.cid))?.push(revlogOf(reviewRow));
    }
    batch.push(bundle);
    batchBytes += bytes;
    if (batch.length >= budget.notes || batchBytes >= budget.bytes) {
      yield batch;
      batch = [];
      batchBytes = 0;
    }
  }
  if (batch.length > 0) yield batch;
}
