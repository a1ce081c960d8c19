// The orgs answers' JSON shapes, shared by the orgs.* handlers (an organization's shared decks):
// decks, assignments, members' progress, and the page every list answers.
import type { Assignment, Deck, MemberProgress } from '@engram/proto/organizations/v1/organizations';

export interface DeckJson {
  id: string;
  organizationId: string;
  teamId: string | null;
  name: string;
  description: string;
  publisherId: string;
  cardCount: number;
  subscriberCount: number;
  subscribed: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface ProgressJson {
  userId: string;
  reviews: number;
  cardsLearned: number;
  cardCount: number;
  /** 0..1; null before the first review of a card in the review state. */
  retention: number | null;
  streakDays: number;
  lastReviewedAt: string | null;
  targetMet: boolean;
}

export interface AssignmentJson {
  id: string;
  organizationId: string;
  deckId: string;
  deckName: string;
  teamId: string | null;
  dueAt: string;
  targetKind: string;
  targetValue: number;
  createdBy: string;
  createdAt: string;
  mine: ProgressJson | null;
  subscribed: boolean;
}

export const deckJson = (deck: Deck): DeckJson => ({
  id: deck.id,
  organizationId: deck.organizationId,
  teamId: deck.teamId || null,
  name: deck.name,
  description: deck.description,
  publisherId: deck.publisherId,
  cardCount: deck.cardCount,
  subscriberCount: deck.subscriberCount,
  subscribed: deck.subscribed,
  createdAt: deck.createdAt?.toISOString() ?? '',
  updatedAt: deck.updatedAt?.toISOString() ?? '',
});

export const progressJson = (progress: MemberProgress): ProgressJson => ({
  userId: progress.userId,
  reviews: progress.reviews,
  cardsLearned: progress.cardsLearned,
  cardCount: progress.cardCount,
  retention: progress.retention ?? null,
  streakDays: progress.streakDays,
  lastReviewedAt: progress.lastReviewedAt?.toISOString() ?? null,
  targetMet: progress.targetMet,
});

export const assignmentJson = (assignment: Assignment): AssignmentJson => ({
  id: assignment.id,
  organizationId: assignment.organizationId,
  deckId: assignment.deckId,
  deckName: assignment.deckName,
  teamId: assignment.teamId || null,
  dueAt: assignment.dueAt?.toISOString() ?? '',
  targetKind: assignment.targetKind,
  targetValue: assignment.targetValue,
  createdBy: assignment.createdBy,
  createdAt: assignment.createdAt?.toISOString() ?? '',
  mine: assignment.mine ? progressJson(assignment.mine) : null,
  subscribed: assignment.subscribed,
});

/** One page of a list; nextCursor is null on the last. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** 0 asks for the service's default page size. */
export const pageRequest = (input: { pageSize?: number; cursor?: string | null | undefined } | undefined) => ({
  pageSize: input?.pageSize ?? 0,
  cursor: input?.cursor ?? '',
});
