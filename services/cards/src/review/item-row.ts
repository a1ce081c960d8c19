// A review item as the review queries read it, and the conversions between its columns, the
// scheduler's memory state and the gRPC ItemState.
import { REVIEW_STATES, type ReviewState } from '@engram/contracts/learning';
import type { MemoryState } from '@engram/contracts/scheduler';
import type { ItemState } from '@engram/proto/cards/v1/review';

export interface ItemRow {
  id: string;
  card_id: string;
  state: number;
  due: Date;
  stability: number;
  difficulty: number;
  elapsed_days: number;
  scheduled_days: number;
  learning_step: number;
  reps: number;
  lapses: number;
  last_review: Date | null;
}

export const ITEM_COLUMNS = `i.id, i.card_id, i.state, i.due, i.stability, i.difficulty, i.elapsed_days,
  i.scheduled_days, i.learning_step, i.reps, i.lapses, i.last_review`;

export const stateName = (state: number): ReviewState => REVIEW_STATES[state] ?? 'new';
export const stateNumber = (state: ReviewState): number => REVIEW_STATES.indexOf(state);

export function memoryOf(row: ItemRow): MemoryState {
  return {
    state: stateName(row.state),
    due: row.due,
    stability: row.stability,
    difficulty: row.difficulty,
    elapsedDays: row.elapsed_days,
    scheduledDays: row.scheduled_days,
    learningStep: row.learning_step,
    reps: row.reps,
    lapses: row.lapses,
    lastReview: row.last_review,
  };
}

export function itemState(memory: MemoryState): ItemState {
  return {
    state: memory.state,
    due: memory.due,
    reps: memory.reps,
    lapses: memory.lapses,
    stability: memory.stability,
    difficulty: memory.difficulty,
    lastReview: memory.lastReview ?? undefined,
    elapsedDays: memory.elapsedDays,
    scheduledDays: memory.scheduledDays,
    learningStep: memory.learningStep,
  };
}

/** The memory state as review_logs.previous keeps it (JSON), so an undo can put it back exactly. */
export function snapshot(memory: MemoryState) {
  return { ...memory, due: memory.due.toISOString(), lastReview: memory.lastReview?.toISOString() ?? null };
}

export function fromSnapshot(value: ReturnType<typeof snapshot>): MemoryState {
  return { ...value, due: new Date(value.due), lastReview: value.lastReview ? new Date(value.lastReview) : null };
}

/** UPDATE of one item to `memory`: parameters $1 (item id) and $2..$11. */
export const UPDATE_ITEM = `
UPDATE review_items SET state = $2, due = $3, stability = $4, difficulty = $5, elapsed_days = $6,
  scheduled_days = $7, learning_step = $8, reps = $9, lapses = $10, last_review = $11
WHERE id = $1`;

export function updateItemValues(id: string, memory: MemoryState): unknown[] {
  return [
    id,
    stateNumber(memory.state),
    memory.due,
    memory.stability,
    memory.difficulty,
    memory.elapsedDays,
    memory.scheduledDays,
    memory.learningStep,
    memory.reps,
    memory.lapses,
    memory.lastReview,
  ];
}
