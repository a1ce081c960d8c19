// Engram cards to an Anki package (the legacy `collection.anki2` layout every current Anki imports), built
// as a stream: the cards service's export job adds its cards one by one as it reads its rows, and each is
// written to a temp SQLite collection at once (in batched transactions), never all held in memory; media
// files go into the zip one by one as they are added. The mapping, so that importing the package again
// gives back the same cards:
// - basic → Anki's stock "Basic", reversed → "Basic (and reversed card)", typed → "Basic (type in the answer)",
//   cloze → "Cloze" (front in Text, back in Back Extra), occlusion → "Image Occlusion" (its shapes in Occlusion as
//   Anki writes them, its picture in Image, the Markdown around them in Header, back in Back Extra), with Anki's
//   stock fields and templates; Markdown becomes HTML (markdown-to-html.ts).
// - Deck: the Anki deck the card was imported from, while it keeps that tag; else its first tag that is a deck
//   path (`Parent::Child`, every level non-empty); else "Default". Parent decks are made too. Every tag is also a note tag, spaces turned to `_` (Anki splits tags on
//   spaces), except the deck's own tag when it has a space: its deck carries it exactly, and an underscored
//   copy would come back from an import as a second tag.
// - Archived → suspended (queue -1). Each review item → an Anki card: its state and due (a review card's due
//   in days since the collection's creation, a (re)learning card's in epoch seconds, a new card's its
//   position), its counts, and its FSRS memory state in the card's `data` as Anki keeps it (`s`, `d`, `dr`,
//   `lrt`). Each review → a revlog row: its id the review time in ms (a later clash moves on by 1 ms), ease
//   the rating, time the duration capped at 60 s as Anki caps it, type from the state before it, ivl and
//   lastIvl from the scheduled days.
// Normalisation an import shows: a single line break comes back as a hard break (`\` at the line's end),
// raw HTML as escaped text, a due time as its day (00:00 UTC) for review cards, a sound's alt text is lost.
import { hash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { pipeline } from 'node:stream/promises';
import { clozeNumbers, reviewOrdinals } from '@engram/contracts/cloze';
import type { CardType } from '@engram/contracts/learning';
import { parseMediaPath, safeMediaName } from '@engram/contracts/media';
import { type NoteTypeShape, noteOrdinals } from '@engram/contracts/note-types';
import { occlusionShapeText, parseOcclusion } from '@engram/contracts/occlusion';
import yazl from 'yazl';
import { markdownToHtml } from './markdown-to-html.ts';
import { LEGACY_CONF, legacyDeckConfig, legacyDecks, legacyModels, SCHEMA11_INDEXES, SCHEMA11_SQL } from './schema.ts';
import { type AnkiOriginal, engramNoteType } from './to-engram.ts';
import type { AnkiDeck, AnkiNoteType } from './types.ts';
import { fieldChecksum, stripHtml } from './write-package.ts';

/** One review item of a card (a `review_items` row): a direction, or a cloze number. */
export interface EngramExportItem {
  /** 0 (1 for a reversed card's back), or the cloze number. */
  ordinal: number;
  /** The item's number (`review_items.number`), by which revlog rows made apart name it (ExportReviewRow). */
  number?: number | undefined;
  /** 0 new, 1 learning, 2 review, 3 relearning. */
  state: number;
  due: Date;
  stability: number;
  difficulty: number;
  reps: number;
  lapses: number;
  lastReview: Date | null;
  scheduledDays: number;
}

/** One review of a card (a `review_logs` row the learner did not undo). */
export interface EngramExportReview {
  id: string;
  /** The ordinal of the item reviewed (its `item_id`'s ordinal). */
  itemOrdinal: number;
  reviewedAt: Date;
  /** 1 again, 2 hard, 3 good, 4 easy. */
  rating: number;
  durationMs: number;
  /** 0 new, 1 learning, 2 review, 3 relearning. */
  stateBefore: number;
  stateAfter?: number;
  scheduledDays: number;
  elapsedDays?: number;
  lastElapsedDays?: number;
  /** When the item fell due after it: a learning step's interval, in seconds, when scheduledDays is 0. */
  dueAfter?: Date;
}

/** A card as the export takes it: a `cards` row with its tag names, review items and reviews. */
export interface EngramExportCard {
  id: string;
  type: CardType;
  /** Markdown; files as `/media/<id>/<name>`. */
  front: string;
  back: string;
  /** Tag names, in the order the first deck path is looked for. */
  tags: string[];
  /** The one of `tags` that is the Anki deck the card was imported from (a deck of one level has no `::`). */
  ankiDeck?: string | null | undefined;
  archived: boolean;
  createdAt: Date;
  updatedAt: Date;
  /** The Anki guid the card was imported with; else one is derived from `id`, the same every export. */
  guid?: string | null | undefined;
  items: EngramExportItem[];
  reviews: EngramExportReview[];
  /** A note (type note): its note type and its fields' values (Markdown, files as `/media/<id>/<name>`). */
  note?: { type: EngramExportNoteType; fields: string[] } | undefined;
}

/** A learner's note type as the export takes it. */
export interface EngramExportNoteType extends NoteTypeShape {
  /** Its Engram id (a stock type's key, or a UUID). */
  id: string;
  css: string;
  /** What Anki wrote of it, when it was imported: given back as it was while the type is as the import made it. */
  anki?: AnkiOriginal | null | undefined;
}

export interface ExportOptions {
  layout?: 'anki2';
  /** When the export happens: the collection is created on its day (00:00 UTC). */
  now?: Date;
  /** The desired retention stored with each card's memory state. */
  desiredRetention?: number;
  /** Rows per transaction. */
  batchSize?: number;
  tempDir?: string;
}

export interface ExportSummary {
  notes: number;
  cards: number;
  revlog: number;
  media: number;
  /** Reviews left out because their item is not one of the card's (a cloze number since removed). */
  skippedReviews: number;
}

export interface AnkiExport {
  /** Writes one card (its note, Anki cards and review log). */
  addCard(card: EngramExportCard): void;
  /**
   * Adds revlog rows made apart from their cards, as the text of a JSON array of ExportReviewRow, before or after
   * their cards (in id order, they are appended as they come): what a database gives as text goes to SQLite without
   * becoming objects first. An export takes its reviews this way or with its cards, not both.
   */
  addReviews(json: string): void;
  /** The name Engram file `id` has in the package; `name` is its Engram name. A name another file already
   * has gets the file's id prefix, so two files of the same name stay two. */
  mediaName(id: string, name: string): string;
  /** Copies a file into the package as `name` (what mediaName gives); the file may go once this resolves. */
  addMedia(name: string, filePath: string): Promise<void>;
  /** Writes the collection and closes the package. */
  finish(): Promise<ExportSummary>;
  /** Stops without a package: the output and temp files are removed. */
  abort(): Promise<void>;
}

const DAY_MS = 86_400_000;
/**
 * The collection's deflate level in the zip: level 1 deflates a 31 MB collection of 40,000 cards in 0.22 s to 9.9 MB,
 * level 3 in 0.30 s to 9.6 MB, zlib's default (6) in 0.7 s to 8.8 MB; the package is built while the learner waits,
 * and downloaded once.
 */
const COLLECTION_DEFLATE_LEVEL = 1;
/** Anki counts at most a minute of a review's time (its "maximum answer seconds" default). */
export const MAX_REVIEW_TIME_MS = 60_000;
const DEFAULT_DECK: AnkiDeck = { id: 1, name: 'Default' };

const BACK = '{{FrontSide}}\n\n<hr id=answer>\n\n';

// Anki's stock Image Occlusion template (both sides draw the shapes of {{cloze:Occlusion}} on the canvas over the
// picture with Anki's own script), and its styling: the colours of the masks.
const OCCLUSION_SIDE = `{{#Header}}<div>{{Header}}</div>{{/Header}}
<div style="display: none">{{cloze:Occlusion}}</div>
<div id="err"></div>
<div id="image-occlusion-container">
    {{Image}}
    <canvas id="image-occlusion-canvas"></canvas>
</div>
<script>
try {
    anki.imageOcclusion.setup();
} catch (exc) {
    document.getElementById("err").innerHTML = \`Error loading image occlusion. Is your Anki version up to date?<br><br>\${exc}\`;
}
</script>
`;
const OCCLUSION_CSS = `#image-occlusion-canvas {
    --inactive-shape-color: #ffeba2;
    --active-shape-color: #ff8e8e;
    --inactive-shape-border: 1px #212121;
    --active-shape-border: 1px #212121;
}

.card {
    font-family: arial;
    font-size: 20px;
    text-align: center;
    color: black;
    background-color: white;
}
`;
/** Anki's stock note types, as a fresh Anki makes them (their ids are this export's own). */
export const STOCK_NOTE_TYPES: Record<Exclude<CardType, 'note'>, AnkiNoteType> = {
  basic: {
    id: 1_000_000_000_001,
    name: 'Basic',
    kind: 'standard',
    originalStockKind: 'basic',
    fields: ['Front', 'Back'],
    templates: [{ ord: 0, name: 'Card 1', qfmt: '{{Front}}', afmt: `${BACK}{{Back}}` }],
  },
  reversed: {
    id: 1_000_000_000_002,
    name: 'Basic (and reversed card)',
    kind: 'standard',
    originalStockKind: 'basicAndReversed',
    fields: ['Front', 'Back'],
    templates: [
      { ord: 0, name: 'Card 1', qfmt: '{{Front}}', afmt: `${BACK}{{Back}}` },
      { ord: 1, name: 'Card 2', qfmt: '{{Back}}', afmt: `${BACK}{{Front}}` },
    ],
  },
  cloze: {
    id: 1_000_000_000_003,
    name: 'Cloze',
    kind: 'cloze',
    originalStockKind: 'cloze',
    fields: ['Text', 'Back Extra'],
    templates: [{ ord: 0, name: 'Cloze', qfmt: '{{cloze:Text}}', afmt: '{{cloze:Text}}<br>\n{{Back Extra}}' }],
  },
  // As Anki writes its stock one: its answer repeats {{Front}} where the others have {{FrontSide}}.
  typed: {
    id: 1_000_000_000_004,
    name: 'Basic (type in the answer)',
    kind: 'standard',
    originalStockKind: 'basicTyping',
    fields: ['Front', 'Back'],
    templates: [
      {
        ord: 0,
        name: 'Card 1',
        qfmt: '{{Front}}\n\n{{type:Back}}',
        afmt: '{{Front}}\n\n<hr id=answer>\n\n{{type:Back}}',
      },
    ],
  },
  occlusion: {
    id: 1_000_000_000_005,
    name: 'Image Occlusion',
    kind: 'cloze',
    originalStockKind: 'imageOcclusion',
    fields: ['Occlusion', 'Image', 'Header', 'Back Extra', 'Comments'],
    templates: [
      {
        ord: 0,
        name: 'Image Occlusion',
        qfmt: OCCLUSION_SIDE,
        afmt: `${OCCLUSION_SIDE}\n<div><button id="toggle">Toggle Masks</button></div>\n{{#Back Extra}}<div>{{Back Extra}}</div>{{/Back Extra}}\n`,
      },
    ],
    css: OCCLUSION_CSS,
  },
};

/** A template tag's stand-in while its template is turned into HTML: letters alone, which Markdown leaves be. */
const tagStandIn = (n: number) => `engramtag${n}x`;

/** An Engram template (Markdown with Anki's tags) as an Anki one: its Markdown in HTML, its tags as written. */
function templateHtml(markdown: string): string {
  const tags: string[] = [];
  const text = markdown.replace(/\{\{[\s\S]*?\}\}/g, (tag) => {
    tags.push(tag);
    return tagStandIn(tags.length - 1);
  });
  const html = markdownToHtml(text, (_id, name) => name);
  return html.replace(/engramtag(\d+)x/g, (_, n: string) => tags[Number(n)] ?? '');
}

/** Anki's default styling of a note type, which an Engram type's own safe rules follow. */
const NOTE_TYPE_CSS = `.card {
    font-family: arial;
    font-size: 20px;
    text-align: center;
    color: black;
    background-color: white;
}
`;

/** Whether an imported note type is still as the import made it from what Anki wrote (not edited in Engram). */
/**
 * The name an imported type goes out with: Anki's own while the learner's is it, or it with the number an import
 * gave it beside a type of that name ("Basic (2)" for a collection's "Basic" with a field added); else the learner's.
 */
function ankiName(name: string, anki: AnkiOriginal): string {
  if (anki.name === undefined) return name;
  const numbered = /^(.*) \(\d+\)$/.exec(name);
  return name === anki.name || numbered?.[1] === anki.name ? anki.name : name;
}

function unchanged(type: EngramExportNoteType, anki: AnkiOriginal): boolean {
  const imported = engramNoteType({
    id: anki.id,
    name: type.name,
    kind: 'standard',
    originalStockKind: undefined,
    fields: anki.fields,
    templates: anki.templates.map((template, ord) => ({ ord, ...template })),
    css: anki.css,
  });
  if (!imported || imported.fields.join('\u001f') !== type.fields.join('\u001f')) return false;
  return JSON.stringify(imported.templates) === JSON.stringify(type.templates);
}

/**
 * The Anki note types of the learners' own note types an export writes, made once each: an imported one that was
 * not edited as Anki wrote it (its id, templates and styling), any other from its Engram templates (in HTML, each
 * answer showing the question above its own part, as Anki's stock ones do) and its safe styling.
 */
function noteTypeRegistry() {
  const models = new Map<string, AnkiNoteType>();
  const usedIds = new Set(Object.values(STOCK_NOTE_TYPES).map((type) => type.id));
  const freeId = (wanted: number) => {
    let id = wanted;
    while (usedIds.has(id)) id++;
    usedIds.add(id);
    return id;
  };
  return {
    modelOf(type: EngramExportNoteType): AnkiNoteType {
      const known = models.get(type.id);
      if (known) return known;
      const anki = type.anki && unchanged(type, type.anki) ? type.anki : undefined;
      const derived = 1_100_000_000_000 + hash('sha1', `engram-note-type:${type.id}`, 'buffer').readUInt32BE(0);
      const model: AnkiNoteType = anki
        ? {
            id: freeId(anki.id),
            name: ankiName(type.name, anki),
            kind: type.kind,
            originalStockKind: undefined,
            fields: anki.fields,
            templates: anki.templates.map((template, ord) => ({ ord, ...template })),
            css: anki.css || undefined,
          }
        : {
            id: freeId(type.anki?.id ?? derived),
            name: type.name,
            kind: type.kind,
            originalStockKind: undefined,
            fields: type.fields,
            templates: type.templates.map((template, ord) => ({
              ord,
              name: template.name,
              qfmt: templateHtml(template.front),
              afmt: `${BACK}${templateHtml(template.back)}`,
            })),
            css: type.css ? `${NOTE_TYPE_CSS}\n${type.css}\n` : NOTE_TYPE_CSS,
          };
      models.set(type.id, model);
      return model;
    },
    all: () => [...models.values()],
  };
}

const GUID_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&()*+,-./:;<=>?@[]^_`{|}~';

/** A guid like Anki's (64 bits in its base-91 alphabet), derived from the Engram card id. */
export function guidOf(cardId: string): string {
  let value = hash('sha1', `engram:${cardId}`, 'buffer').readBigUInt64BE(0);
  let out = '';
  do {
    out = GUID_ALPHABET[Number(value % 91n)] + out;
    value /= 91n;
  } while (value > 0n);
  return out;
}

/** A file's name as Engram shows it (safeMediaName), also without what would end a `[sound:…]` early or
 * what Anki refuses in a media name. */
export const ankiMediaName = (name: string) => safeMediaName(name).replace(/[[\]^]/g, '_');

/** The tag's deck path, when it is one: `Parent::Child`, no level empty. */
export function deckPathOf(tag: string): string | undefined {
  const levels = tag.split('::').map((level) => level.trim());
  return levels.length >= 2 && levels.every(Boolean) ? levels.join('::') : undefined;
}

/** A tag name as an Anki note tag: Anki splits tags on whitespace. */
export const ankiTag = (tag: string) => tag.trim().replace(/\s+/g, '_');

/** A revlog row's type from the review's state before it: 0 (learn) from new or learning, 1 from review, 2 from relearning. */
const revlogType = (stateBefore: number) => (stateBefore === 2 ? 1 : stateBefore === 3 ? 2 : 0);

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** Whether Anki numbers a type's cards by their cloze number (a cloze's deletions, an occlusion's shapes). */
const numbersCards = (type: CardType) => type === 'cloze' || type === 'occlusion';

/** An item's Anki card ordinal: its template's (0, 1), or for a cloze or an occlusion its number less one. */
function ankiOrdinal(type: CardType, itemOrdinal: number): number {
  return numbersCards(type) ? itemOrdinal - 1 : itemOrdinal;
}

const html = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * An occlusion card's note fields as Anki's Image Occlusion note holds them: the shapes (a `<br>` between two, as
 * Anki writes them), the picture as an `<img>` of its name in the package, the Markdown around the shapes as the
 * header, the back as Back Extra, no comments.
 */
function occlusionFields(front: string, back: string, mediaName: (id: string, name: string) => string): string[] {
  const occlusion = parseOcclusion(front);
  const file = occlusion?.picture && parseMediaPath(occlusion.picture.src);
  let image = '';
  if (file) {
    let name = file.name;
    try {
      name = decodeURIComponent(file.name);
    } catch {}
    image = `<img src="${html(mediaName(file.id, name)).replaceAll('"', '&quot;')}">`;
  }
  const shapes = (occlusion?.shapes ?? []).map((shape) => html(occlusionShapeText(shape))).join('<br>');
  const header = [occlusion?.before, occlusion?.after].filter(Boolean).join('\n\n');
  return [shapes, image, markdownToHtml(header, mediaName), markdownToHtml(back, mediaName), ''];
}

/**
 * A map from ids (integers below 2^53) to ids, in two typed arrays with open addressing: a Map's keys above 2^31 are
 * boxed numbers, and its lookups and the numbers it allocates took 0.5 s of a 40,000-card export's 7 (310,000 ids).
 */
class IdLinks {
  private keys = new Float64Array(1 << 16).fill(Number.NaN);
  private values = new Float64Array(1 << 16);
  private size = 0;

  private slot(id: number, keys: Float64Array): number {
    const mask = keys.length - 1;
    // The id's low and high 32 bits, mixed (Fibonacci hashing).
    let at = Math.imul((id | 0) ^ ((id / 4_294_967_296) | 0), 0x9e3779b1) & mask;
    for (let key = keys[at]!; !Number.isNaN(key) && key !== id; key = keys[at]!) at = (at + 1) & mask;
    return at;
  }

  /** The id linked from `id`, or 0 for none. */
  get(id: number): number {
    const at = this.slot(id, this.keys);
    return this.keys[at] === id ? this.values[at]! : 0;
  }

  set(id: number, value: number): void {
    let at = this.slot(id, this.keys);
    if (this.keys[at] !== id) {
      if (++this.size * 2 > this.keys.length) {
        this.grow();
        at = this.slot(id, this.keys);
      }
      this.keys[at] = id;
    }
    this.values[at] = value;
  }

  /** Twice the room, every link kept. */
  private grow(): void {
    const { keys, values } = this;
    this.keys = new Float64Array(keys.length * 2).fill(Number.NaN);
    this.values = new Float64Array(keys.length * 2);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (Number.isNaN(key)) continue;
      const at = this.slot(key, this.keys);
      this.keys[at] = key;
      this.values[at] = values[i]!;
    }
  }
}

/**
 * The ids of a table whose ids are times in ms: each row gets the first free id from the one asked for, as imported
 * cards share one creation time, so note and card ids pile up on the same few milliseconds. The ids given are kept
 * as "next free id from here" links (a disjoint-set forest with path compression), so finding the next free one
 * never walks past every id taken before it. Ids are positive integers.
 */
export function idAllocator() {
  const links = new IdLinks();
  const passed: number[] = [];
  /** Takes the first free id from `id` on. */
  return (id: number): number => {
    let next = links.get(id);
    if (next === 0) {
      links.set(id, id + 1);
      return id;
    }
    passed.length = 0;
    passed.push(id);
    let at = next;
    for (next = links.get(at); next !== 0; next = links.get(at)) {
      passed.push(at);
      at = next;
    }
    links.set(at, at + 1);
    for (const taken of passed) links.set(taken, at + 1);
    return at;
  };
}

/** Rows written at once by one statement: a call into SQLite costs about what a row does, so rows go in hundreds. */
const ROWS_PER_INSERT = 100;

/** The rows of one table, gathered and written ROWS_PER_INSERT at a time (`row` is one row's VALUES tuple). */
function batchedInsert(db: DatabaseSync, insert: string, row: string) {
  const values: (string | number | null)[] = [];
  let rows = 0;
  const statements = new Map<number, StatementSync>();
  const statement = (count: number) => {
    let prepared = statements.get(count);
    if (!prepared) {
      prepared = db.prepare(`${insert} VALUES ${Array.from({ length: count }, () => row).join(', ')}`);
      statements.set(count, prepared);
    }
    return prepared;
  };
  const flush = () => {
    if (rows === 0) return;
    statement(rows).run(...values);
    values.length = 0;
    rows = 0;
  };
  return {
    /** Adds a row (`first`, when given, before `rowValues`), written with the rows after it or at the next flush. */
    add(rowValues: (string | number | null)[], first?: number): void {
      if (first !== undefined) values.push(first);
      for (const value of rowValues) values.push(value);
      rows++;
      if (rows === ROWS_PER_INSERT) flush();
    },
    flush,
  };
}

/** The rows of a table whose ids are times in ms, each at its own id (idAllocator), written as batchedInsert does. */
function rowWriter(db: DatabaseSync, insert: string, row: string) {
  const freeId = idAllocator();
  const batch = batchedInsert(db, insert, row);
  return {
    /** Adds a row at the first free id from `wantedId` on, then its other values; returns its id. */
    add(wantedId: number, rowValues: (string | number)[]): number {
      const id = freeId(wantedId);
      batch.add(rowValues, id);
      return id;
    },
    flush: batch.flush,
  };
}

/** The package's decks: Default, and each deck path's levels made as they are first named. */
function deckRegistry(created: number) {
  const decks = new Map<string, AnkiDeck>([[DEFAULT_DECK.name, DEFAULT_DECK]]);
  /** The id of deck `path` (`Parent::Child`), its parents made too. */
  const deckId = (path: string): number => {
    const levels = path.split('::');
    let id = DEFAULT_DECK.id;
    for (let depth = 1; depth <= levels.length; depth++) {
      const name = levels.slice(0, depth).join('::');
      let deck = decks.get(name);
      if (!deck) {
        deck = { id: created * 1000 + decks.size, name };
        decks.set(name, deck);
      }
      id = deck.id;
    }
    return id;
  };
  return { deckId, all: () => [...decks.values()] };
}

/** Media names by file id, each unique in the package: as many as the collection has files. */
function mediaNames() {
  const names = new Map<string, string>();
  const takenNames = new Set<string>();
  return (id: string, name: string): string => {
    const key = id.toLowerCase();
    const known = names.get(key);
    if (known) return known;
    const safe = ankiMediaName(name);
    const extension = extname(safe);
    const unique = takenNames.has(safe)
      ? `${safe.slice(0, safe.length - extension.length)}-${key.slice(0, 8)}${extension}`
      : safe;
    names.set(key, unique);
    takenNames.add(unique);
    return unique;
  };
}

/** An Anki card's scheduling columns: type, queue, due, interval, factor, learning steps left and memory state. */
interface SchedulingColumns {
  type: number;
  queue: number;
  due: number;
  ivl: number;
  factor: number;
  left: number;
  data: string;
}

/**
 * The columns of an item (none: a new card Anki would make); `nextNewPosition` gives a new card its place,
 * `created` is the collection's creation (a review card's due counts days from it).
 */
function schedulingOf(
  item: EngramExportItem | undefined,
  archived: boolean,
  context: { desiredRetention: number; created: number; nextNewPosition: () => number },
): SchedulingColumns {
  const suspend = (queue: number) => (archived ? -1 : queue);
  if (!item || item.state === 0) {
    return { type: 0, queue: suspend(0), due: context.nextNewPosition(), ivl: 0, factor: 0, left: 0, data: '{}' };
  }
  const data =
    item.stability > 0 && item.difficulty >= 1 && item.difficulty <= 10
      ? JSON.stringify({
          s: item.stability,
          d: item.difficulty,
          dr: context.desiredRetention,
          ...(item.lastReview && { lrt: seconds(item.lastReview) }),
        })
      : '{}';
  if (item.state === 2) {
    const due = Math.floor((item.due.getTime() - context.created * 1000) / DAY_MS);
    const ivl = Math.max(1, item.scheduledDays);
    return { type: 2, queue: suspend(2), due, ivl, factor: 2500, left: 0, data };
  }
  // Learning (1) and relearning (3): due at a time, one step left; a relearning card keeps its interval.
  const ivl = item.state === 3 ? Math.max(1, item.scheduledDays) : 0;
  return {
    type: item.state,
    queue: suspend(1),
    due: seconds(item.due),
    ivl,
    factor: item.state === 3 ? 2500 : 0,
    left: 1,
    data,
  };
}

/** The deck a card goes to: the Anki deck it came from while it keeps that tag, else its first deck-path tag. */
function deckTagOf(card: EngramExportCard): string | undefined {
  return card.tags.find((tag) => tag === card.ankiDeck) ?? card.tags.find((tag) => deckPathOf(tag) !== undefined);
}

/** The Anki card ordinals a note has: its items', and each direction or cloze number its type has. */
function ordinalsOf(card: EngramExportCard, items: Map<number, EngramExportItem>): number[] {
  const ordinals = new Set(items.keys());
  if (card.note) {
    for (const ord of noteOrdinals(card.note.type, card.note.fields)) ordinals.add(ord);
    return [...ordinals].filter((ord) => ord >= 0 && ord < card.note!.type.templates.length).sort((a, b) => a - b);
  }
  if (!numbersCards(card.type)) ordinals.add(0);
  if (card.type === 'reversed') ordinals.add(1);
  if (card.type === 'cloze') for (const n of clozeNumbers(card.front)) ordinals.add(n - 1);
  if (card.type === 'occlusion') for (const n of reviewOrdinals('occlusion', card.front)) ordinals.add(n - 1);
  return [...ordinals].filter((ord) => ord >= 0).sort((a, b) => a - b);
}

/** A revlog row's interval: the scheduled days, or for a (re)learning step minus its seconds (Anki's way). */
function revlogInterval(review: EngramExportReview): number {
  if (review.scheduledDays > 0) return review.scheduledDays;
  if (!review.dueAfter) return 0;
  return -Math.max(0, Math.round((review.dueAfter.getTime() - review.reviewedAt.getTime()) / 1000));
}

/** The tables an export fills through a staging table of the same columns (openCollection). */
const STAGED_TABLES = ['revlog'] as const;

/**
 * A revlog row made apart from its card (`addReviews`): the number of the item reviewed (EngramExportItem's) in place
 * of the Anki card id, which the export gives at the end (the Anki card of that item, or none: the review is left
 * out); the other columns as `addCard` makes them from a card's reviews (revlogInterval, revlogType, its id the first
 * free one from the review's time, lastIvl the ivl of the item's review before it).
 */
export type ExportReviewRow = [
  itemNumber: number,
  id: number,
  ease: number,
  ivl: number,
  lastIvl: number,
  time: number,
  type: number,
];

/**
 * The temp collection an export writes into, with its statements, in transactions of about `batchSize` rows. Notes
 * and cards go straight into their tables: their ids (times in ms) grow as the cards come in the order they were
 * made, so each row is appended (in another order each went into the middle of a B-tree, splitting its pages, at
 * six times the cost). The revlog rows of cards' reviews, whose ids follow the reviews' times card after card, go
 * first into a staging table of the same columns without a key, in a file of its own beside it (`stagingPath`), and
 * `moveIn` fills the revlog from it in id order. Revlog rows made apart from their cards (ExportReviewRow) are staged
 * in the order they come (in id order, they are appended again), beside which Anki card each item (by number) is,
 * and join the revlog at the end.
 */
function openCollection(path: string, stagingPath: string, batchSize: number) {
  const db = new DatabaseSync(path);
  // A scratch file written once (a failed export throws it away): no journal, and a page cache that holds the
  // tables' last pages as they grow.
  db.exec(
    'PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA page_size = 4096; PRAGMA cache_size = -65536; ' +
      'PRAGMA locking_mode = EXCLUSIVE; PRAGMA temp_store = MEMORY;',
  );
  db.exec(SCHEMA11_SQL);
  db.prepare('ATTACH DATABASE ? AS staging').run(stagingPath);
  db.exec(
    'PRAGMA staging.journal_mode = OFF; PRAGMA staging.synchronous = OFF; PRAGMA staging.locking_mode = EXCLUSIVE;',
  );
  for (const table of STAGED_TABLES) db.exec(`CREATE TABLE staging.${table} AS SELECT * FROM main.${table} WHERE 0`);
  db.exec(
    'CREATE TABLE staging.item_cards (item INTEGER, cid INTEGER);' +
      'CREATE TABLE staging.reviews (item INTEGER, id INTEGER, ease INTEGER, ivl INTEGER, last_ivl INTEGER, ' +
      'time INTEGER, type INTEGER)',
  );
  db.exec('BEGIN');
  let pending = 0;
  const insertNote = rowWriter(db, 'INSERT INTO main.notes', '(?, ?, ?, ?, -1, ?, ?, ?, ?, 0, ?)');
  const insertCard = rowWriter(db, 'INSERT INTO main.cards', '(?, ?, ?, ?, ?, -1, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, 0, ?)');
  const insertRevlog = rowWriter(db, 'INSERT INTO staging.revlog', '(?, ?, -1, ?, ?, ?, ?, ?, ?)');
  // Appended as the cards come (their items' numbers come in no order: kept in the order of a key, each went into
  // the middle of a B-tree, 186 ms for 72,000), and looked up through an index made at the end (26 ms).
  const insertItemCard = batchedInsert(db, 'INSERT INTO staging.item_cards', '(?, ?)');
  // jsonb_each: each row's values read from SQLite's binary JSON, where json_each gave each as text parsed again
  // for every value (twice the time).
  const insertReviews = db.prepare(
    'INSERT INTO staging.reviews SELECT value->>0, value->>1, value->>2, value->>3, value->>4, value->>5, ' +
      'value->>6 FROM jsonb_each(?)',
  );
  /** Writes every row still gathered. */
  const flush = () => {
    insertNote.flush();
    insertCard.flush();
    insertRevlog.flush();
    insertItemCard.flush();
  };
  /** Counts rows written, committing every `batchSize`. */
  const wrote = (rows: number) => {
    pending += rows;
    if (pending >= batchSize) {
      flush();
      db.exec('COMMIT; BEGIN');
      pending = 0;
    }
  };
  return {
    db,
    insertNote,
    insertCard,
    insertRevlog,
    insertItemCard,
    wrote,
    /** Stages the revlog rows of a JSON array of ExportReviewRow. */
    addReviews(json: string) {
      wrote(Number(insertReviews.run(json).changes));
    },
    /**
     * Ends the staging: the staged revlog rows go into the revlog in id order, those made apart join their cards,
     * and the staging file is let go. Returns how many of those rows went in, and how many were left out.
     */
    moveIn(): { revlog: number; skippedReviews: number } {
      flush();
      for (const table of STAGED_TABLES) {
        db.exec(`INSERT OR IGNORE INTO main.${table} SELECT * FROM staging.${table} ORDER BY id`);
      }
      db.exec('CREATE INDEX staging.item_cards_item ON item_cards (item, cid)');
      const staged = Number((db.prepare('SELECT count(*) AS n FROM staging.reviews').get() as { n: number }).n);
      // In the order they came (a scan of the table, no sort).
      const joined = db
        .prepare(
          'INSERT INTO main.revlog SELECT r.id, m.cid, -1, r.ease, r.ivl, r.last_ivl, ' +
            'CASE r.type WHEN 0 THEN 0 ELSE 2500 END, r.time, r.type ' +
            'FROM staging.reviews r CROSS JOIN staging.item_cards m ON m.item = r.item ORDER BY r.rowid',
        )
        .run();
      db.exec('COMMIT');
      db.exec('DETACH DATABASE staging');
      const revlog = Number(joined.changes);
      return { revlog, skippedReviews: staged - revlog };
    },
  };
}

/** Where an export writes: the package, and the temp folder holding the collection while it is built. */
interface ExportPaths {
  out: string;
  dir: string;
  collection: string;
  /** The staging tables' file (openCollection). */
  staging: string;
}

/** One export under way (createExport starts it): the collection in SQLite, the media in the zip. */
class PackageWriter implements AnkiExport {
  readonly mediaName = mediaNames();
  private readonly decks: ReturnType<typeof deckRegistry>;
  private readonly summary: ExportSummary = { notes: 0, cards: 0, revlog: 0, media: 0, skippedReviews: 0 };
  private readonly mediaMap: Record<string, string> = {};
  private readonly addedMedia = new Set<string>();
  private readonly scheduling: { desiredRetention: number; created: number; nextNewPosition: () => number };
  private newPosition = 0;
  private state: 'open' | 'finished' | 'aborted' = 'open';
  private reviewsCome: 'with their cards' | 'apart' | undefined;
  private readonly noteTypes = noteTypeRegistry();

  private readonly paths: ExportPaths;
  private readonly collection: ReturnType<typeof openCollection>;
  private readonly zip: yazl.ZipFile;
  private readonly written: Promise<void>;
  private readonly times: { now: Date; created: number };

  constructor(parts: {
    paths: ExportPaths;
    collection: ReturnType<typeof openCollection>;
    zip: yazl.ZipFile;
    written: Promise<void>;
    now: Date;
    created: number;
    desiredRetention: number;
  }) {
    this.paths = parts.paths;
    this.collection = parts.collection;
    this.zip = parts.zip;
    this.written = parts.written;
    this.times = { now: parts.now, created: parts.created };
    this.decks = deckRegistry(parts.created);
    this.scheduling = {
      desiredRetention: parts.desiredRetention,
      created: parts.created,
      nextNewPosition: () => ++this.newPosition,
    };
  }

  private assertOpen(): void {
    if (this.state !== 'open') throw new Error(`This export is ${this.state}.`);
  }

  readonly addCard = (card: EngramExportCard): void => {
    this.assertOpen();
    if (card.reviews.length > 0) this.reviewsTaken('with their cards');
    const fields = card.note
      ? card.note.fields.map((field) => markdownToHtml(field, this.mediaName))
      : card.type === 'occlusion'
        ? occlusionFields(card.front, card.back, this.mediaName)
        : [markdownToHtml(card.front, this.mediaName), markdownToHtml(card.back, this.mediaName)];
    const deckTag = deckTagOf(card);
    const deckPath = deckTag === undefined ? undefined : (deckPathOf(deckTag) ?? deckTag.trim());
    const did = deckPath === undefined ? DEFAULT_DECK.id : this.decks.deckId(deckPath);
    const noteId = this.writeNote(card, fields, deckTag);
    const cardIds = this.writeCards(card, noteId, did);
    const logged = this.writeReviews(card, cardIds);
    this.collection.wrote(1 + cardIds.size + card.items.length + logged);
  };

  /** The card's note; returns its id. */
  private writeNote(card: EngramExportCard, fields: string[], deckTag: string | undefined): number {
    const first = fields[0] ?? '';
    const noteTags = [
      ...new Set(card.tags.filter((tag) => !(tag === deckTag && /\s/.test(tag.trim()))).map(ankiTag)),
    ].filter(Boolean);
    const noteId = this.collection.insertNote.add(card.createdAt.getTime(), [
      card.guid || guidOf(card.id),
      card.note
        ? this.noteTypes.modelOf(card.note.type).id
        : STOCK_NOTE_TYPES[card.type === 'note' ? 'basic' : card.type].id,
      seconds(card.updatedAt),
      noteTags.length ? ` ${noteTags.join(' ')} ` : '',
      fields.join('\x1f'),
      stripHtml(first),
      fieldChecksum(first),
      '',
    ]);
    this.summary.notes++;
    return noteId;
  }

  /** Every item is a card; a direction the type has but no item for is a new card, as Anki would make it. */
  private writeCards(card: EngramExportCard, noteId: number, did: number): Map<number, number> {
    const items = new Map(card.items.map((item) => [ankiOrdinal(card.type, item.ordinal), item]));
    const cardIds = new Map<number, number>();
    for (const ord of ordinalsOf(card, items)) {
      const item = items.get(ord);
      const row = schedulingOf(item, card.archived, this.scheduling);
      const id = this.collection.insertCard.add(noteId + ord, [
        noteId,
        did,
        ord,
        seconds(card.updatedAt),
        row.type,
        row.queue,
        row.due,
        row.ivl,
        row.factor,
        item?.reps ?? 0,
        item?.lapses ?? 0,
        row.left,
        row.data,
      ]);
      // Where the revlog rows made apart of the item this card is go.
      if (item?.number !== undefined) this.collection.insertItemCard.add([item.number, id]);
      cardIds.set(ord, id);
    }
    this.summary.cards += cardIds.size;
    return cardIds;
  }

  /** The card's reviews, in time order, each on its Anki card; returns how many were written. */
  private writeReviews(card: EngramExportCard, cardIds: Map<number, number>): number {
    if (card.reviews.length === 0) return 0;
    const lastInterval = new Map<number, number>();
    let logged = 0;
    const reviews = [...card.reviews].sort((a, b) => a.reviewedAt.getTime() - b.reviewedAt.getTime());
    for (const review of reviews) {
      const ord = ankiOrdinal(card.type, review.itemOrdinal);
      const cid = cardIds.get(ord);
      if (cid === undefined) {
        this.summary.skippedReviews++;
        continue;
      }
      const ivl = revlogInterval(review);
      const type = revlogType(review.stateBefore);
      this.collection.insertRevlog.add(review.reviewedAt.getTime(), [
        cid,
        review.rating,
        ivl,
        lastInterval.get(ord) ?? 0,
        type === 0 ? 0 : 2500,
        Math.max(0, Math.min(MAX_REVIEW_TIME_MS, Math.round(review.durationMs))),
        type,
      ]);
      lastInterval.set(ord, ivl);
      logged++;
    }
    this.summary.revlog += logged;
    return logged;
  }

  /** Reviews come with their cards or apart, never both: their ids are given by one or the other. */
  private reviewsTaken(how: 'with their cards' | 'apart'): void {
    this.reviewsCome ??= how;
    if (this.reviewsCome !== how) throw new Error(`This export takes its reviews ${this.reviewsCome}, not ${how}.`);
  }

  readonly addReviews = (json: string): void => {
    this.assertOpen();
    this.reviewsTaken('apart');
    this.collection.addReviews(json);
  };

  readonly addMedia = async (name: string, filePath: string): Promise<void> => {
    this.assertOpen();
    if (this.addedMedia.has(name)) throw new Error(`The media file "${name}" is in this export already.`);
    this.addedMedia.add(name);
    const index = String(this.summary.media++);
    this.mediaMap[index] = name;
    const stream = createReadStream(filePath);
    const read = new Promise<void>((resolve, reject) => {
      stream.once('error', reject);
      stream.once('close', resolve);
    });
    // Images and sounds are compressed already: stored as they are.
    this.zip.addReadStream(stream, index, { compress: false });
    await read;
  };

  /** The collection's one `col` row: its creation and modification times, note types, decks and options. */
  private writeCollectionRow(): void {
    const mod = Math.floor(this.times.now.getTime() / 1000);
    this.collection.db
      .prepare('INSERT INTO col VALUES (1, ?, ?, ?, 11, 0, 0, 0, ?, ?, ?, ?, ?)')
      .run(
        this.times.created,
        mod * 1000,
        mod * 1000,
        LEGACY_CONF,
        legacyModels([...Object.values(STOCK_NOTE_TYPES), ...this.noteTypes.all()], DEFAULT_DECK.id, mod),
        legacyDecks(this.decks.all(), mod),
        legacyDeckConfig(mod),
        '{}',
      );
  }

  readonly finish = async (): Promise<ExportSummary> => {
    this.assertOpen();
    this.state = 'finished';
    const { db } = this.collection;
    try {
      const apart = this.collection.moveIn();
      this.summary.revlog += apart.revlog;
      this.summary.skippedReviews += apart.skippedReviews;
      this.writeCollectionRow();
      db.exec(SCHEMA11_INDEXES);
      db.close();
      this.zip.addFile(this.paths.collection, 'collection.anki2', { compressionLevel: COLLECTION_DEFLATE_LEVEL });
      this.zip.addBuffer(Buffer.from(JSON.stringify(this.mediaMap)), 'media');
      this.zip.end();
      await this.written;
      return this.summary;
    } catch (error) {
      await rm(this.paths.out, { force: true });
      throw error;
    } finally {
      if (db.isOpen) db.close();
      await rm(this.paths.dir, { recursive: true, force: true });
    }
  };

  readonly abort = async (): Promise<void> => {
    if (this.state !== 'open') return;
    this.state = 'aborted';
    if (this.collection.db.isOpen) this.collection.db.close();
    this.zip.end();
    await this.written.catch(() => undefined);
    await rm(this.paths.dir, { recursive: true, force: true });
    await rm(this.paths.out, { force: true });
  };
}

/** Starts an export to `outPath`. */
export async function createExport(outPath: string, options: ExportOptions = {}): Promise<AnkiExport> {
  const now = options.now ?? new Date();
  const created = Math.floor(now.getTime() / DAY_MS) * 86_400;
  const dir = await mkdtemp(join(options.tempDir ?? tmpdir(), 'engram-anki-export-'));
  const paths = { out: outPath, dir, collection: join(dir, 'collection.anki2'), staging: join(dir, 'staging') };
  const collection = openCollection(paths.collection, paths.staging, options.batchSize ?? 5000);
  const zip = new yazl.ZipFile();
  const written = pipeline(zip.outputStream, createWriteStream(outPath));
  // A failed write surfaces from finish(); until then nobody awaits it.
  written.catch(() => undefined);
  const desiredRetention = options.desiredRetention ?? 0.9;
  return new PackageWriter({ paths, collection, zip, written, now, created, desiredRetention });
}
