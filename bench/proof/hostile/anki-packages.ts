// The Anki packages hostile learners bring, written with @engram/anki's writer (legacy layout) and imported as
// any learner imports one: many new cards (the simulations' learner), and a year of study as Anki would have
// logged it (the optimization's): the synthetic learner of cards' optimizer tests
// (services/cards/src/optimizer/synthetic-learner.ts) learns new cards through learning steps [1m, 10m], forgets
// some and relearns them through [10m], and reviews the rest days apart; here they also take breaks (every
// BREAK_EVERY_DAYS days of study, BREAK_DAYS days of none, after which every card is overdue). Each review becomes
// a revlog entry as Anki writes one (kind 0 learning, 1 review, 2 relearning; negative intervals in seconds for a
// step the same day), each card a Basic note's card in the review queue.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GENERATED_DECKS, GENERATED_NOTE_TYPES } from '@engram/anki/generate-collection';
import type { AnkiCard, AnkiNote, AnkiRevlog } from '@engram/anki/types';
import { writePackage } from '@engram/anki/write-package';
import { FORGETFUL_PARAMETERS, syntheticLearner } from '@engram/cards/optimizer/synthetic-learner';
import { addDays } from '@engram/contracts/study-day';

const DAY_MS = 86_400_000;
const BREAK_EVERY_DAYS = 60;
const BREAK_DAYS = 21;
// The revlog kind Anki logs for each state the synthetic learner's card was in (new, learning, review,
// relearning): 0 learning, 1 review, 2 relearning.
const KIND_OF_STATE = [0, 0, 1, 2];
const REVIEW_KIND = 1;
const AGAIN = 1;

export interface HistoryShape {
  /** Days of study (breaks come on top). */
  days: number;
  newPerDay: number;
}

/** The history's reviews in Anki's terms: days of study with breaks between, ending yesterday. */
function reviewsWithBreaks({ days, newPerDay }: HistoryShape) {
  const breaks = Math.floor((days - 1) / BREAK_EVERY_DAYS);
  const today = new Date().toISOString().slice(0, 10);
  const firstDay = addDays(today, -(days + breaks * BREAK_DAYS + 1));
  const reviews = syntheticLearner({
    parameters: FORGETFUL_PARAMETERS,
    firstDay,
    days,
    newPerDay,
    timeZone: 'UTC',
    dayStartHour: 4,
    seed: 41,
  });
  const start = Date.parse(`${firstDay}T04:00:00Z`);
  // Every review after a break's start moves on by the break: whole days, so steps stay on their day.
  return {
    firstDay,
    reviews: reviews.map((review) => {
      const studyDay = Math.floor((review.reviewedAt.getTime() - start) / DAY_MS);
      const shift = Math.floor(studyDay / BREAK_EVERY_DAYS) * BREAK_DAYS * DAY_MS;
      return { ...review, at: review.reviewedAt.getTime() + shift };
    }),
  };
}

const basicNote = (n: number, created: number): AnkiNote => ({
  id: 1_700_000_000_000 + n,
  guid: `note${n}`,
  noteTypeId: GENERATED_NOTE_TYPES[0]?.id ?? 0,
  fields: [`question ${n}`, `answer ${n}`],
  tags: [],
  modified: created,
});

/** Writes `count` Basic notes never studied (one new card each) as a legacy Anki package at `path`. */
export async function writeNewCards(path: string, count: number): Promise<void> {
  const created = Math.floor(Date.now() / 1000);
  const notes = Array.from({ length: count }, (_, i) => basicNote(i + 1, created));
  await writePackage(path, {
    created,
    noteTypes: GENERATED_NOTE_TYPES.slice(0, 1),
    decks: GENERATED_DECKS.slice(0, 1),
    notes,
    cards: notes.map((note, i) => ({
      id: note.id,
      noteId: note.id,
      ordinal: 0,
      deckId: GENERATED_DECKS[0]?.id ?? 1,
      queue: 0,
      type: 0,
      due: i + 1,
      interval: 0,
      easeFactor: 0,
      reps: 0,
      lapses: 0,
      fsrs: undefined,
    })),
    revlog: [],
    media: [],
  });
}

type HistoryReview = ReturnType<typeof reviewsWithBreaks>['reviews'][number];

/** One card's reviews as Anki's revlog entries (their ids, times in ms, kept unique across the collection). */
function revlogOf(cardId: number, reviews: HistoryReview[], usedIds: Set<number>): AnkiRevlog[] {
  let lastInterval = 0;
  return reviews.map((review, i) => {
    const next = reviews[i + 1];
    const type = KIND_OF_STATE[review.stateBefore] ?? REVIEW_KIND;
    // Anki's interval after the review: seconds to a step the same day (negative), else days.
    const interval = !next
      ? 1
      : next.at - review.at < DAY_MS / 2
        ? -Math.round((next.at - review.at) / 1000)
        : Math.max(1, Math.round((next.at - review.at) / DAY_MS));
    // A clash of times moves the later entry on by a millisecond.
    let id = review.at;
    while (usedIds.has(id)) id += 1;
    usedIds.add(id);
    const entry = { id, cardId, ease: review.rating, interval, lastInterval, timeMs: 8_000, type };
    lastInterval = interval;
    return { ...entry, factor: type === 0 ? 0 : 2500 };
  });
}

/** Writes the history as a legacy Anki package at `path`; answers how many reviews it holds. */
export async function writeAnkiHistory(path: string, shape: HistoryShape): Promise<number> {
  const { firstDay, reviews } = reviewsWithBreaks(shape);
  const created = Date.parse(`${firstDay}T00:00:00Z`) / 1000;
  const byItem = new Map<string, HistoryReview[]>();
  for (const review of reviews) {
    const ofItem = byItem.get(review.itemId) ?? [];
    ofItem.push(review);
    byItem.set(review.itemId, ofItem);
  }
  const notes: AnkiNote[] = [];
  const cards: AnkiCard[] = [];
  const revlog: AnkiRevlog[] = [];
  const usedIds = new Set<number>();
  for (const itemReviews of byItem.values()) {
    const note = basicNote(notes.length + 1, created);
    notes.push(note);
    const entries = revlogOf(note.id, itemReviews, usedIds);
    revlog.push(...entries);
    const last = itemReviews.at(-1)?.at ?? created * 1000;
    cards.push({
      id: note.id,
      noteId: note.id,
      ordinal: 0,
      deckId: GENERATED_DECKS[0]?.id ?? 1,
      queue: 2,
      type: 2,
      due: Math.floor((last - created * 1000) / DAY_MS) + 1,
      interval: 1,
      easeFactor: 2500,
      reps: entries.length,
      lapses: entries.filter((entry) => entry.type === REVIEW_KIND && entry.ease === AGAIN).length,
      fsrs: undefined,
    });
  }
  await writePackage(path, {
    created,
    noteTypes: GENERATED_NOTE_TYPES.slice(0, 1),
    decks: GENERATED_DECKS.slice(0, 1),
    notes,
    cards,
    revlog,
    media: [],
  });
  return revlog.length;
}

/** The bytes of the package `write` writes at the path it is given, and what it answers. */
export async function packaged<T>(write: (path: string) => Promise<T>): Promise<{ bytes: Buffer; value: T }> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-proof-package-'));
  try {
    const path = join(dir, 'package.apkg');
    const value = await write(path);
    return { bytes: readFileSync(path), value };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
