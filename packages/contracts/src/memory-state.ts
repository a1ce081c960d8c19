// A review item's FSRS memory state in Engram's names, and the ts-fsrs card it is: one mapping for every side
// that schedules (the cards service) or rebuilds a state (an Anki import replaying its review log).
import type { Card as FsrsCard, State as FsrsState } from 'ts-fsrs';
import { REVIEW_STATES, type ReviewState } from './learning.ts';

/** What is kept of one review direction between reviews (FSRS's card, in our names). */
export interface MemoryState {
  state: ReviewState;
  due: Date;
  stability: number;
  difficulty: number;
  /** Days between the last two reviews (FSRS still reads it for its short-term logic). */
  elapsedDays: number;
  scheduledDays: number;
  /** Index of the current (re)learning step. */
  learningStep: number;
  reps: number;
  lapses: number;
  lastReview: Date | null;
}

/** A new item, due at `now`. */
export function newMemoryState(now: Date): MemoryState {
  return {
    state: 'new',
    due: now,
    stability: 0,
    difficulty: 0,
    elapsedDays: 0,
    scheduledDays: 0,
    learningStep: 0,
    reps: 0,
    lapses: 0,
    lastReview: null,
  };
}

const stateName = (state: FsrsState): ReviewState => REVIEW_STATES[state] ?? 'new';
const fsrsState = (state: ReviewState): FsrsState => REVIEW_STATES.indexOf(state) as FsrsState;

export function toFsrsCard(memory: MemoryState): FsrsCard {
  return {
    due: memory.due,
    stability: memory.stability,
    difficulty: memory.difficulty,
    elapsed_days: memory.elapsedDays,
    scheduled_days: memory.scheduledDays,
    learning_steps: memory.learningStep,
    reps: memory.reps,
    lapses: memory.lapses,
    state: fsrsState(memory.state),
    ...(memory.lastReview && { last_review: memory.lastReview }),
  };
}

export function fromFsrsCard(card: FsrsCard): MemoryState {
  return {
    state: stateName(card.state),
    due: card.due,
    stability: card.stability,
    difficulty: card.difficulty,
    elapsedDays: card.elapsed_days,
    scheduledDays: card.scheduled_days,
    learningStep: card.learning_steps,
    reps: card.reps,
    lapses: card.lapses,
    lastReview: card.last_review ?? null,
  };
}

/** A memory state as the API carries it (dates as ISO strings): what cards.review and cards.syncReviews answer. */
export interface MemoryStateJson {
  state: ReviewState;
  due: string;
  reps: number;
  lapses: number;
  stability: number;
  difficulty: number;
  lastReview: string | null;
  elapsedDays: number;
  scheduledDays: number;
  learningStep: number;
}

export const memoryToJson = (memory: MemoryState): MemoryStateJson => ({
  state: memory.state,
  due: memory.due.toISOString(),
  reps: memory.reps,
  lapses: memory.lapses,
  stability: memory.stability,
  difficulty: memory.difficulty,
  lastReview: memory.lastReview?.toISOString() ?? null,
  elapsedDays: memory.elapsedDays,
  scheduledDays: memory.scheduledDays,
  learningStep: memory.learningStep,
});

export const memoryFromJson = (json: MemoryStateJson): MemoryState => ({
  ...json,
  due: new Date(json.due),
  lastReview: json.lastReview === null ? null : new Date(json.lastReview),
});
