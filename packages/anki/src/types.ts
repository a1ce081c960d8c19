// What the reader yields from a collection, in Anki's own terms (ids are Anki's, numbers as Anki keeps
// them), whatever the package's layout. The mapping to Engram's cards is to-engram.ts's.

export type AnkiLayout = 'anki2' | 'anki21' | 'anki21b';

export interface AnkiTemplate {
  ord: number;
  name: string;
  qfmt: string;
  afmt: string;
}

/** Anki's stock kinds (StockNotetype.OriginalStockKind): what a note type was made from, when Anki knows. */
export type StockKind =
  | 'basic'
  | 'basicAndReversed'
  | 'basicOptionalReversed'
  | 'basicTyping'
  | 'cloze'
  | 'imageOcclusion';

export interface AnkiNoteType {
  id: number;
  name: string;
  kind: 'standard' | 'cloze';
  /** The stock note type it was made from, when the collection records it (Anki 2.1.56 and later). */
  originalStockKind: StockKind | undefined;
  fields: string[];
  templates: AnkiTemplate[];
  /** Its styling, when a writer gives it its own (else the writer's default). */
  css?: string;
}

export interface AnkiDeck {
  id: number;
  /** The full name, levels joined by `::` (schema 18 keeps \x1f; the reader turns it back). */
  name: string;
}

export interface AnkiNote {
  id: number;
  guid: string;
  noteTypeId: number;
  /** The fields' HTML, in the note type's field order. */
  fields: string[];
  tags: string[];
  /** Seconds since the epoch of the note's last change. */
  modified: number;
  /** Set by the reader on a note larger than its limit with its cards and reviews: none of them was read. */
  tooLarge?: true;
}

/** FSRS memory state Anki keeps in a card's `data` when FSRS was on. */
export interface AnkiFsrsState {
  stability: number;
  difficulty: number;
  desiredRetention: number | undefined;
  /** Seconds since the epoch of the last review, when Anki recorded it. */
  lastReview: number | undefined;
}

export interface AnkiCard {
  id: number;
  noteId: number;
  ordinal: number;
  deckId: number;
  /** -1 suspended, -2/-3 buried, 0 new, 1 learning, 2 review, 3 day learning, 4 preview. */
  queue: number;
  /** 0 new, 1 learning, 2 review, 3 relearning. */
  type: number;
  /** New: position; review: days since the collection's creation; learning: seconds since the epoch. */
  due: number;
  interval: number;
  /** Permille (2500 = 250%); 0 for new cards. */
  easeFactor: number;
  reps: number;
  lapses: number;
  fsrs: AnkiFsrsState | undefined;
}

export interface AnkiRevlog {
  /** Milliseconds since the epoch: when the review happened. */
  id: number;
  cardId: number;
  /** 1 again, 2 hard, 3 good, 4 easy; 0 a manual reschedule. */
  ease: number;
  interval: number;
  lastInterval: number;
  factor: number;
  timeMs: number;
  /** 0 learn, 1 review, 2 relearn, 3 filtered (cram), 4 manual/rescheduled. */
  type: number;
}

export interface AnkiMedia {
  /** The file's name inside the package (`0`, `1`, …). */
  index: string;
  /** The name notes use for it (`<img src>`, `[sound:…]`). */
  name: string;
  /** Where it was unpacked, decompressed. */
  path: string;
  size: number;
}

/** One note with its cards and each card's review log: what the mapping works on. */
export interface AnkiNoteBundle {
  note: AnkiNote;
  cards: { card: AnkiCard; revlog: AnkiRevlog[] }[];
}
