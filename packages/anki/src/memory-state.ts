// A card's FSRS memory state and review history in Engram's terms. Anki's stored state (`s`, `d` in the
// card's data) wins when present; otherwise the review log is replayed through ts-fsrs. Manual entries
// (ease 0 or type 4: reschedules, resets) are not reviews and neither move the state nor become logs;
// filtered-deck (cram, type 3) reviews become logs but do not move the state. Every other entry becomes an
// Engram review log with what ts-fsrs computes, the same fields a review in Engram records.

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
  /** A filtered-deck review: logged, but it did not move the memory state. */
  cram: boolean;
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
export const isReview = (entry: AnkiRevlog) => entry.ease >= 1 && entry.ease <= 4 && entry.type !== 4;

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
  let current = createEmptyCard(revlog.find(isReview) ? new Date(revlog.find(isReview)!.id) : now);
  const logs: EngramReviewLog[] = [];
  for (const entry of [...revlog].sort((a, b) => a.id - b.id)) {
    if (!isReview(entry)) continue;
    const at = new Date(entry.id);
    const previous = fromFsrsCard(current);
    const rating = entry.ease as 1 | 2 | 3 | 4;
    const durationMs = Math.max(0, Math.min(MAX_DURATION_MS, entry.timeMs));
    if (entry.type === 3) {
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
        cram: true,
      });
      continue;
    }
    const { card: next, log } = scheduler.next(current, at, rating as Grade);
    const after = fromFsrsCard(next);
    logs.push({
      reviewedAt: at,
      rating,
      durationMs,
      stateBefore: previous.state,
      stateAfter: after.state,
      elapsedDays: log.elapsed_days,
      lastElapsedDays: log.last_elapsed_days,
      scheduledDays: log.scheduled_days,
      learningStep: log.learning_steps,
      dueAfter: next.due,
      previous,
      after,
      cram: false,
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
