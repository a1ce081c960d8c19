// A card's FSRS memory state in Engram's terms. Anki's stored state (`s`, `d` in the card's data) wins when
// present; otherwise the review log is replayed through ts-fsrs. The entries are read as Anki's own FSRS reads
// them (rslib's reviews_for_fsrs): a manual entry (ease 0, or kind 4 or 5) is no review and does not move the
// state, except a reset ("Forget": manual with no ease factor), after which the card starts again as new; a
// review in a filtered deck that did not reschedule (kind 3 without an ease factor: a preview) becomes a log that
// does not move the state, and is marked so the optimizer leaves it out; every other entry becomes an Engram
// review log with what ts-fsrs computes, the same fields a review in Engram records. A history that does not
// start with a learning entry (older entries deleted, or the card given a due date while new) keeps Anki's
// kind as its first log's state before, so the optimizer knows it lacks the card's start.

import { REVIEW_STATES, type ReviewState } from '@engram/contracts/learning';
import { fromFsrsCard, type MemoryState } from '@engram/contracts/memory-state';
import { createEmptyCard, type FSRSParameters, fsrs, type Grade, generatorParameters } from 'ts-fsrs';
import type { AnkiCard, AnkiRevlog } from './types.ts';

/** A card's memory state in Engram's terms (the cards service keeps it per review item). */
export type EngramMemoryState = MemoryState;

/** One Anki review as an Engram review log row (without the ids the importer assigns). */
export interface EngramReviewLog {
  reviewedAt: Date;
  rating: 1 | 2 | 3 | 4;
  durationMs: number;
  stateBefore: ReviewState;
  stateAfter: ReviewState;
  elapsedDays: number;
  lastElapsedDays: number;
  scheduledDays: number;
  learningStep: number;
  dueAfter: Date;
  previous: EngramMemoryState;
  after: EngramMemoryState;
  /** A filtered-deck review that did not reschedule (a preview): logged, but it did not move the memory state. */
  preview: boolean;
}

export interface MemoryResult {
  memory: EngramMemoryState;
  logs: EngramReviewLog[];
  /** Where stability and difficulty came from. */
  source: 'anki' | 'replay' | 'new';
}

const DAY_MS = 86_400_000;
/** Longest a review's duration may count (Anki caps it too; Engram refuses longer). */
const MAX_DURATION_MS = 3_600_000;

/** Whether a review log entry is a review the learner made (rated 1–4), not a manual change. */
export const isReview = (entry: AnkiRevlog) => entry.ease >= 1 && entry.ease <= 4 && entry.type < 4;

/** A "Forget" (or reset) entry: manual, without an ease factor. The card starts again as new after it. */
export const isReset = (entry: AnkiRevlog) => !isReview(entry) && entry.factor === 0;

/** A review in a filtered deck that did not reschedule the card: Anki's FSRS does not learn from it. */
export const isPreview = (entry: AnkiRevlog) => entry.type === 3 && entry.factor === 0;

/** Anki's kind of a review entry as the state the card was in: learning, review, relearning (filtered: review). */
const KIND_STATE: ReviewState[] = ['new', 'review', 'relearning', 'review'];

export interface MemoryOptions {
  /** FSRS parameters for the replay; ts-fsrs's defaults without fuzz otherwise. */
  parameters?: Partial<FSRSParameters>;
  /** The collection's creation (seconds), for review cards' due days; AnkiReader.created. */
  created: number;
  /** When the import happens: a new card is due now. */
  now?: Date;
}

/** The memory state and review logs of one Anki card. */
export function memoryState(card: AnkiCard, revlog: AnkiRevlog[], options: MemoryOptions): MemoryResult {
  const scheduler = fsrs(generatorParameters({ enable_fuzz: false, enable_short_term: true, ...options.parameters }));
  const now = options.now ?? new Date();
  const entries = [...revlog].sort((a, b) => a.id - b.id);
  const firstReview = entries.find(isReview);
  let current = createEmptyCard(firstReview ? new Date(firstReview.id) : now);
  /** Whether the next review is the first since the card was new (at the start, or after a reset). */
  let starting = true;
  /** The kind of the last review since then. */
  let lastKind: number | undefined;
  const logs: EngramReviewLog[] = [];
  for (const entry of entries) {
    const at = new Date(entry.id);
    // Anki before 2.1.50 wrote no entry when a card was forgotten: a learning entry after the card had left
    // learning is its new start, as Anki's FSRS reads it (the last run of learning entries).
    const restarted = entry.type === 0 && lastKind !== undefined && lastKind !== 0 && isReview(entry);
    if (isReset(entry) || restarted) {
      current = createEmptyCard(at);
      starting = true;
      lastKind = undefined;
      if (!restarted) continue;
    }
    if (!isReview(entry)) continue;
    const previous = fromFsrsCard(current);
    const rating = entry.ease as 1 | 2 | 3 | 4;
    const durationMs = Math.max(0, Math.min(MAX_DURATION_MS, entry.timeMs));
    if (isPreview(entry)) {
      logs.push({
        reviewedAt: at,
        rating,
        durationMs,
        stateBefore: previous.state,
        stateAfter: previous.state,
        elapsedDays: 0,
        lastElapsedDays: previous.elapsedDays,
        scheduledDays: previous.scheduledDays,
        learningStep: previous.learningStep,
        dueAfter: previous.due,
        previous,
        after: previous,
        preview: true,
      });
      continue;
    }
    lastKind = entry.type;
    // A card that did not start with a learning entry here is not new to the learner, whatever the replay says.
    const stateBefore = starting && entry.type !== 0 ? (KIND_STATE[entry.type] ?? 'review') : previous.state;
    starting = false;
    const { card: next, log } = scheduler.next(current, at, rating as Grade);
    const after = fromFsrsCard(next);
    logs.push({
      reviewedAt: at,
      rating,
      durationMs,
      stateBefore,
      stateAfter: after.state,
      elapsedDays: log.elapsed_days,
      lastElapsedDays: log.last_elapsed_days,
      scheduledDays: log.scheduled_days,
      learningStep: log.learning_steps,
      dueAfter: next.due,
      previous,
      after,
      preview: false,
    });
    current = next;
  }
  const replayed = fromFsrsCard(current);
  if (!card.fsrs) {
    if (logs.length === 0) return { memory: { ...fromFsrsCard(createEmptyCard(now)), due: now }, logs, source: 'new' };
    return { memory: replayed, logs, source: 'replay' };
  }
  // Anki's own state: its stability and difficulty, its card's state and due, its counts.
  const state = REVIEW_STATES[card.type] ?? replayed.state;
  const due =
    card.type === 2
      ? new Date((options.created + card.due * 86_400) * 1000)
      : card.type === 0
        ? now
        : new Date(card.due * 1000);
  const lastReview = card.fsrs.lastReview ? new Date(card.fsrs.lastReview * 1000) : replayed.lastReview;
  return {
    memory: {
      ...replayed,
      state,
      due: Number.isFinite(due.getTime()) ? due : replayed.due,
      stability: card.fsrs.stability,
      difficulty: card.fsrs.difficulty,
      scheduledDays: card.type === 2 ? card.interval : replayed.scheduledDays,
      elapsedDays: lastReview ? Math.max(0, Math.floor((now.getTime() - lastReview.getTime()) / DAY_MS)) : 0,
      reps: card.reps,
      lapses: card.lapses,
      lastReview,
    },
    logs,
    source: 'anki',
  };
}
