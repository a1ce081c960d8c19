// A synthetic Anki collection for tests and benchmarks, in any of the three layouts: Basic, Basic (and
// reversed card), Cloze and a custom note type (and, if asked, Image Occlusion notes), with decks, tags, suspended cards, review history (with
// manual and filtered-deck entries among the reviews), FSRS memory state if asked, images and sounds.
// Deterministic: the same options give the same collection. Rows are produced lazily, so 40,000 notes
// with 200,000 review log entries are written in seconds without being held in memory.
import { crc32, deflateSync } from 'node:zlib';
import { STOCK_NOTE_TYPES } from './from-engram.ts';
import type { AnkiCard, AnkiDeck, AnkiLayout, AnkiNote, AnkiNoteType, AnkiRevlog } from './types.ts';
import { type MediaInput, writePackage } from './write-package.ts';

export interface GenerateOptions {
  layout: AnkiLayout;
  notes: number;
  /** Average review log entries per card (fractions spread evenly). */
  reviewsPerCard?: number;
  /** How many media files; half images, half sounds, each used by one note. */
  media?: number;
  /** Store FSRS memory state in cards' data, as Anki does with FSRS on. */
  withFsrsState?: boolean;
  /** Every n-th note has all its cards suspended (0: none). */
  suspendEvery?: number;
  /** Every n-th note is an Image Occlusion note of three shapes (three cards) on the first picture (0: none). */
  occlusionEvery?: number;
  tempDir?: string;
}

const DAY = 86_400;
/** 2024-01-01, the generated collection's creation day. */
export const GENERATED_CREATED = 1_704_067_200;

export const GENERATED_NOTE_TYPES: AnkiNoteType[] = [
  {
    id: 1_700_000_000_001,
    name: 'Basic',
    kind: 'standard',
    originalStockKind: 'basic',
    fields: ['Front', 'Back'],
    templates: [{ ord: 0, name: 'Card 1', qfmt: '{{Front}}', afmt: '{{FrontSide}}\n\n<hr id=answer>\n\n{{Back}}' }],
  },
  {
    id: 1_700_000_000_002,
    name: 'Basic (and reversed card)',
    kind: 'standard',
    originalStockKind: 'basicAndReversed',
    fields: ['Front', 'Back'],
    templates: [
      { ord: 0, name: 'Card 1', qfmt: '{{Front}}', afmt: '{{FrontSide}}\n\n<hr id=answer>\n\n{{Back}}' },
      { ord: 1, name: 'Card 2', qfmt: '{{Back}}', afmt: '{{FrontSide}}\n\n<hr id=answer>\n\n{{Front}}' },
    ],
  },
  {
    id: 1_700_000_000_003,
    name: 'Cloze',
    kind: 'cloze',
    originalStockKind: 'cloze',
    fields: ['Text', 'Back Extra'],
    templates: [{ ord: 0, name: 'Cloze', qfmt: '{{cloze:Text}}', afmt: '{{cloze:Text}}<br>\n{{Back Extra}}' }],
  },
  {
    id: 1_700_000_000_004,
    name: 'Vocabulary',
    kind: 'standard',
    originalStockKind: undefined,
    fields: ['Word', 'Meaning', 'Example'],
    templates: [
      {
        ord: 0,
        name: 'Recognise',
        qfmt: '{{Word}}',
        afmt: '{{FrontSide}}<hr id=answer>{{Meaning}}{{#Example}}<br><i>{{Example}}</i>{{/Example}}',
      },
      { ord: 1, name: 'Recall', qfmt: '{{Meaning}}', afmt: '{{FrontSide}}<hr id=answer>{{text:Word}}' },
    ],
  },
];

/** Anki's stock Image Occlusion note type, for the Image Occlusion notes a collection asks for. */
export const GENERATED_OCCLUSION_TYPE: AnkiNoteType = { ...STOCK_NOTE_TYPES.occlusion, id: 1_700_000_000_005 };

/** Whether note `i` is an Image Occlusion note. */
const isOcclusionNote = (i: number, occlusionEvery: number) =>
  occlusionEvery > 0 && i % occlusionEvery === occlusionEvery - 1;

export const GENERATED_DECKS: AnkiDeck[] = [
  { id: 1, name: 'Default' },
  { id: 1_700_000_001_001, name: 'Languages' },
  { id: 1_700_000_001_002, name: 'Languages::Spanish' },
  { id: 1_700_000_001_003, name: 'Science' },
];

// Media file `i`: a 1×1 PNG of its own colour, or an MP3 frame of its own bytes; real enough for a media
// pipeline (an image decodes and re-encodes), and no two alike, so a learner's store keeps each as a file.
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function generatedPng(i: number): Buffer {
  // 1×1, 8-bit RGB; the one row is filter byte 0 and the pixel.
  const header = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]);
  const pixel = Buffer.from([0, (i >> 16) & 0xff, (i >> 8) & 0xff, i & 0xff]);
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(pixel)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

export function generatedMp3(i: number): Buffer {
  const frame = Buffer.alloc(413);
  frame.writeUInt32BE(i);
  return Buffer.concat([Buffer.from('fffb9064', 'hex'), frame]);
}

/** The name of generated media file `i`. */
export const generatedMediaName = (i: number) => (i % 2 === 0 ? `image-${i}.png` : `sound ${i}.mp3`);

/** Note `i`'s note type index (into GENERATED_NOTE_TYPES): the four kinds in turn. */
export const generatedKind = (i: number) => i % 4;

export const generatedNoteId = (i: number) => 1_710_000_000_000 + i;
export const generatedGuid = (i: number) => `g${i.toString(36).padStart(8, '0')}`;

/** A file in a note's field, as Anki writes an image or a sound. */
const mediaTag = (name: string) => (/\.png$/.test(name) ? `<img src="${encodeURI(name)}">` : `[sound:${name}]`);

/** Note `i` as the generator writes it. */
export function generatedNote(i: number, mediaCount: number, occlusionEvery = 0): AnkiNote {
  if (isOcclusionNote(i, occlusionEvery)) {
    // Three shapes as Anki writes them (a rectangle, an ellipse, a polygon), hide all, on the first picture.
    const shapes = [
      `{{c1::image-occlusion:rect:left=.1:top=.${(i % 7) + 1}:width=.2:height=.05:oi=1}}`,
      '{{c2::image-occlusion:ellipse:left=.5:top=.2:rx=.1:ry=.05:oi=1}}',
      '{{c3::image-occlusion:polygon:left=.6:top=.6:points=.6,.6 .8,.6 .7,.8:oi=1}}',
    ].join('<br>');
    return {
      id: generatedNoteId(i),
      guid: generatedGuid(i),
      noteTypeId: GENERATED_OCCLUSION_TYPE.id,
      // Its own file in its header, as every note before the media count shows one.
      fields: [
        shapes,
        mediaCount > 0 ? `<img src="${generatedMediaName(0)}">` : '',
        `Diagram ${i}${i < mediaCount ? mediaTag(generatedMediaName(i)) : ''}`,
        '',
        '',
      ],
      tags: [`batch${i % 5}`],
      modified: GENERATED_CREATED + i,
    };
  }
  const kind = generatedKind(i);
  const media = i < mediaCount ? generatedMediaName(i) : undefined;
  // Each note before the media count shows its file: images in basic and cloze notes, sounds in the others.
  const mediaHtml = media ? (i % 2 === 0 ? `<img src="${encodeURI(media)}">` : `[sound:${media}]`) : '';
  const fields =
    kind === 0
      ? [`What is ${i} + 1?${mediaHtml}`, `<b>${i + 1}</b>`]
      : kind === 1
        ? [`word ${i}`, `palabra ${i}&nbsp;&amp; more${mediaHtml}`]
        : kind === 2
          ? [`The {{c1::capital}} of country ${i} is {{c2::city ${i}::a city}}.${mediaHtml}`, `Extra ${i}`]
          : [`vocab ${i}${mediaHtml}`, `<div>meaning ${i}</div>`, i % 8 === 3 ? `example ${i}` : ''];
  const tags = [`batch${i % 5}`, ...(i % 3 === 0 ? ['marked'] : [])];
  return {
    id: generatedNoteId(i),
    guid: generatedGuid(i),
    noteTypeId: GENERATED_NOTE_TYPES[kind]!.id,
    fields,
    tags,
    modified: GENERATED_CREATED + i,
  };
}

/** How many cards note `i` has: one per template, one per cloze number (or occlusion shape). */
export const generatedCardCount = (i: number, occlusionEvery = 0) =>
  isOcclusionNote(i, occlusionEvery) ? 3 : [1, 2, 2, 2][generatedKind(i)]!;

interface Generated {
  notes: Iterable<AnkiNote>;
  cards: Iterable<AnkiCard>;
  revlog: Iterable<AnkiRevlog>;
}

/** Deterministic pseudo-random numbers in [0, 1). */
function random(seed: number) {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

function rows(options: GenerateOptions): Generated {
  const count = options.notes;
  const mediaCount = options.media ?? 0;
  const reviewsPerCard = options.reviewsPerCard ?? 0;
  const suspendEvery = options.suspendEvery ?? 10;
  const occlusionEvery = options.occlusionEvery ?? 0;
  const decks = GENERATED_DECKS;

  function* cardsAndLogs(): Generator<{ card: AnkiCard; revlog: AnkiRevlog[] }> {
    const rand = random(42);
    // Review log ids are times in ms and must be unique: a clash moves the later entry on by a millisecond.
    const usedIds = new Set<number>();
    let owed = 0;
    for (let i = 0; i < count; i++) {
      const suspended = suspendEvery > 0 && i % suspendEvery === suspendEvery - 1;
      for (let ord = 0; ord < generatedCardCount(i, occlusionEvery); ord++) {
        const id = 1_720_000_000_000 + i * 4 + ord;
        owed += reviewsPerCard;
        const reviews = Math.floor(owed);
        owed -= reviews;
        const revlog: AnkiRevlog[] = [];
        // Cards start a few seconds apart (and off the whole second), so their review times rarely meet.
        let time = (GENERATED_CREATED + DAY) * 1000 + (i * 4 + ord) * 7919;
        let interval = 0;
        let lapses = 0;
        for (let r = 0; r < reviews; r++) {
          // Mostly good, some again/hard/easy; now and then a manual reschedule or a filtered-deck review.
          const roll = rand();
          const manual = r > 0 && roll < 0.03;
          const ease = manual ? 0 : roll < 0.12 ? 1 : roll < 0.22 ? 2 : roll < 0.9 ? 3 : 4;
          const type = manual ? 4 : r === 0 ? 0 : roll > 0.97 ? 3 : ease === 1 ? 2 : 1;
          if (ease === 1 && r > 0) lapses++;
          const lastInterval = interval;
          interval =
            ease === 1 ? -600 : Math.max(1, Math.round((interval || 1) * (ease === 2 ? 1.2 : ease === 4 ? 3 : 2.5)));
          let logId = time;
          while (usedIds.has(logId)) logId++;
          usedIds.add(logId);
          revlog.push({
            id: logId,
            cardId: id,
            ease,
            interval,
            lastInterval,
            // A preview in a filtered deck that does not reschedule keeps no ease factor, as Anki logs it.
            factor: type === 3 ? 0 : 2500,
            timeMs: 3000 + Math.floor(rand() * 9000),
            type,
          });
          time += Math.max(1, interval) * DAY * 1000;
        }
        const reviewed = reviews > 0;
        const lastTime = revlog.at(-1)?.id;
        const card: AnkiCard = {
          id,
          noteId: generatedNoteId(i),
          ordinal: ord,
          deckId: decks[i % decks.length]!.id,
          queue: suspended ? -1 : reviewed ? 2 : 0,
          type: reviewed ? 2 : 0,
          due: reviewed ? Math.floor((time / 1000 - GENERATED_CREATED) / DAY) : i,
          interval: reviewed ? Math.max(1, interval) : 0,
          easeFactor: reviewed ? 2500 : 0,
          reps: reviews,
          lapses,
          fsrs:
            options.withFsrsState && reviewed
              ? {
                  stability: Math.round((1 + rand() * 50) * 1000) / 1000,
                  difficulty: Math.round((1 + rand() * 9) * 1000) / 1000,
                  desiredRetention: 0.9,
                  lastReview: lastTime === undefined ? undefined : Math.floor(lastTime / 1000),
                }
              : undefined,
        };
        yield { card, revlog };
      }
    }
  }

  return {
    notes: (function* () {
      for (let i = 0; i < count; i++) yield generatedNote(i, mediaCount, occlusionEvery);
    })(),
    cards: (function* () {
      for (const { card } of cardsAndLogs()) yield card;
    })(),
    revlog: (function* () {
      for (const { revlog } of cardsAndLogs()) yield* revlog;
    })(),
  };
}

function* generatedMedia(count: number): Generator<MediaInput> {
  for (let i = 0; i < count; i++)
    yield { name: generatedMediaName(i), data: i % 2 === 0 ? generatedPng(i) : generatedMp3(i) };
}

/** Writes a generated collection to `outPath` as a package of `options.layout`. */
export async function generateCollection(outPath: string, options: GenerateOptions): Promise<void> {
  const { notes, cards, revlog } = rows(options);
  await writePackage(
    outPath,
    {
      created: GENERATED_CREATED,
      noteTypes: options.occlusionEvery ? [...GENERATED_NOTE_TYPES, GENERATED_OCCLUSION_TYPE] : GENERATED_NOTE_TYPES,
      decks: GENERATED_DECKS,
      notes,
      cards,
      revlog,
      media: generatedMedia(options.media ?? 0),
    },
    { layout: options.layout, ...(options.tempDir && { tempDir: options.tempDir }) },
  );
}

/** The cards and review logs the generator writes, for tests to compare against (same order as the reader's). */
export function generatedRows(options: GenerateOptions): Generated {
  return rows(options);
}
