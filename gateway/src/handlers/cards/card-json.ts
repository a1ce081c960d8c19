// The JSON shapes of cards, tags and review items for the web app (dates as ISO strings).
import type { CardType, RatingName, ReviewState } from '@engram/contracts/learning';
import type { MemoryStateJson } from '@engram/contracts/memory-state';
import type { ItemSides } from '@engram/contracts/offline';
import type { Card as CardMessage, Tag as TagMessage } from '@engram/proto/cards/v1/cards';
import type {
  DueItem as DueItemMessage,
  ItemState as ItemStateMessage,
  NextIntervals as NextIntervalsMessage,
} from '@engram/proto/cards/v1/review';

export interface Tag {
  id: string;
  name: string;
}

export interface Card {
  id: string;
  type: CardType;
  front: string;
  back: string;
  archived: boolean;
  tags: Tag[];
  /** The shared deck (orgs.*) this card is a copy of; null for the learner's own cards. */
  deckId: string | null;
  /** A note (type note): its note type and its fields' values; null for any other card. */
  noteTypeId: string | null;
  fields: string[] | null;
  createdAt: string;
  updatedAt: string;
}

/** A new card as the cards service takes it: a note's note type and fields, or empty (protobuf has no "unset"). */
export function newCardRequest<T extends { noteTypeId?: string; fields?: string[] }>(card: T) {
  const { noteTypeId, fields, ...rest } = card;
  return { ...rest, noteTypeId: noteTypeId ?? '', fieldValues: fields ?? [] };
}

export interface DueItem extends ItemSides {
  state: ReviewState;
  due: string;
  reps: number;
  lapses: number;
  /** Seconds each rating would put the item off; null from a cards service that does not say. */
  nextIntervals: NextIntervals | null;
}

export type NextIntervals = Record<RatingName, number>;

/** An item's whole memory state (what a device schedules its next review from). */
export type ItemState = MemoryStateJson;

const iso = (date: Date | undefined) => (date ?? new Date(0)).toISOString();

export function nextIntervalsJson(intervals: NextIntervalsMessage | undefined): NextIntervals | null {
  if (!intervals) return null;
  return { again: intervals.again, hard: intervals.hard, good: intervals.good, easy: intervals.easy };
}

export function tagJson(tag: TagMessage | undefined): Tag {
  if (!tag) throw new Error('the cards service returned no tag');
  return { id: tag.id, name: tag.name };
}

export function cardJson(card: CardMessage | undefined): Card {
  if (!card) throw new Error('the cards service returned no card');
  return {
    id: card.id,
    type: (card.type || 'basic') as CardType,
    front: card.front,
    back: card.back,
    archived: card.archived,
    tags: card.tags.map(tagJson),
    deckId: card.deckId || null,
    noteTypeId: card.noteTypeId || null,
    fields: card.noteTypeId ? card.fieldValues : null,
    createdAt: iso(card.createdAt),
    updatedAt: iso(card.updatedAt),
  };
}

/** What a due item shows of its card: its direction's prompt and answer, type and tags. */
export function itemSidesJson(item: DueItemMessage): ItemSides {
  return {
    id: item.id,
    cardId: item.cardId,
    type: item.type as CardType,
    ordinal: item.ordinal,
    front: item.front,
    back: item.back,
    tags: item.tags.map(tagJson),
    ...(item.typedAnswer && { typed: { expected: item.typedAnswer, ignoreAccents: item.typedIgnoreAccents } }),
    ...(item.noteTypeId && { noteTypeId: item.noteTypeId }),
  };
}

export function dueItemJson(item: DueItemMessage): DueItem {
  return {
    ...itemSidesJson(item),
    state: item.state as ReviewState,
    due: iso(item.due),
    reps: item.reps,
    lapses: item.lapses,
    nextIntervals: nextIntervalsJson(item.nextIntervals),
  };
}

export function itemStateJson(item: ItemStateMessage | undefined): ItemState {
  if (!item) throw new Error('the cards service returned no item state');
  return {
    state: item.state as ReviewState,
    due: iso(item.due),
    reps: item.reps,
    lapses: item.lapses,
    stability: item.stability,
    difficulty: item.difficulty,
    lastReview: item.lastReview?.toISOString() ?? null,
    elapsedDays: item.elapsedDays,
    scheduledDays: item.scheduledDays,
    learningStep: item.learningStep,
  };
}
