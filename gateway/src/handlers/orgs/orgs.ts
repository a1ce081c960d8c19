// orgs.*: learning together in an organization, thin adapters over the organizations service's gRPC API.
// Its token also names identity (asked for the caller's membership and permissions on every call) and
// cards (asked for the publisher's cards when a deck is published or synced).
import {
  assignmentInput,
  type CreateAssignmentInput,
  createAssignmentInput,
  deckInput,
  listAssignmentsInput,
  listDecksInput,
  type PublishDeckInput,
  progressInput,
  publishDeckInput,
} from '@engram/contracts/shared-decks';
import type { Assignment, Deck, MemberProgress } from '@engram/proto/organizations/v1/organizations';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { ProtectedContext } from '../../trpc.js';

export {
  assignmentInput,
  createAssignmentInput,
  deckInput,
  listAssignmentsInput,
  listDecksInput,
  progressInput,
  publishDeckInput,
};

/** Publishing reads up to DECK_CARD_LIMIT cards and writes an event for each. */
const PUBLISH_CALL = { timeoutMs: 30_000 } as const;

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

const deckJson = (deck: Deck): DeckJson => ({
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

const progressJson = (progress: MemberProgress): ProgressJson => ({
  userId: progress.userId,
  reviews: progress.reviews,
  cardsLearned: progress.cardsLearned,
  cardCount: progress.cardCount,
  retention: progress.retention ?? null,
  streakDays: progress.streakDays,
  lastReviewedAt: progress.lastReviewedAt?.toISOString() ?? null,
  targetMet: progress.targetMet,
});

const assignmentJson = (assignment: Assignment): AssignmentJson => ({
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

type Call<I> = { ctx: ProtectedContext; input: I };

/** One page of a list; nextCursor is null on the last. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** 0 asks for the service's default page size. */
const pageRequest = (input: { pageSize?: number; cursor?: string | null | undefined } | undefined) => ({
  pageSize: input?.pageSize ?? 0,
  cursor: input?.cursor ?? '',
});

export async function decks({ ctx, input }: Call<z.infer<typeof listDecksInput>>): Promise<Page<DeckJson>> {
  const request = { organizationId: input.organizationId, ...pageRequest(input) };
  const answer = await asUser(ctx).organizations.listDecks(request);
  return { items: answer.decks.map(deckJson), nextCursor: answer.nextCursor || null };
}

export async function publishDeck({ ctx, input }: Call<PublishDeckInput>): Promise<DeckJson> {
  const request = {
    organizationId: input.organizationId,
    teamId: input.teamId ?? '',
    name: input.name,
    description: input.description ?? '',
    tagId: input.tagId,
  };
  return deckJson(await asUser(ctx).organizations.publishDeck(request, PUBLISH_CALL));
}

export async function syncDeck({ ctx, input }: Call<z.infer<typeof deckInput>>): Promise<DeckJson> {
  return deckJson(await asUser(ctx).organizations.syncDeck(input, PUBLISH_CALL));
}

export async function deleteDeck({ ctx, input }: Call<z.infer<typeof deckInput>>): Promise<{ deleted: true }> {
  await asUser(ctx).organizations.deleteDeck(input);
  return { deleted: true };
}

export async function subscribe({ ctx, input }: Call<z.infer<typeof deckInput>>): Promise<DeckJson> {
  return deckJson(await asUser(ctx).organizations.subscribe(input));
}

export async function unsubscribe({ ctx, input }: Call<z.infer<typeof deckInput>>): Promise<DeckJson> {
  return deckJson(await asUser(ctx).organizations.unsubscribe(input));
}

export async function createAssignment({ ctx, input }: Call<CreateAssignmentInput>): Promise<AssignmentJson> {
  const request = { ...input, teamId: input.teamId ?? '', dueAt: new Date(input.dueAt) };
  return assignmentJson(await asUser(ctx).organizations.createAssignment(request));
}

export async function deleteAssignment({
  ctx,
  input,
}: Call<z.infer<typeof assignmentInput>>): Promise<{ deleted: true }> {
  await asUser(ctx).organizations.deleteAssignment(input);
  return { deleted: true };
}

export async function assignments({
  ctx,
  input,
}: Call<z.infer<typeof listAssignmentsInput>>): Promise<Page<AssignmentJson>> {
  const request = {
    organizationId: input?.organizationId ?? '',
    ...pageRequest(input),
  };
  const answer = await asUser(ctx).organizations.listAssignments(request);
  return { items: answer.assignments.map(assignmentJson), nextCursor: answer.nextCursor || null };
}

export async function progress({
  ctx,
  input,
}: Call<z.infer<typeof progressInput>>): Promise<Page<ProgressJson> & { allMembers: boolean }> {
  const request = {
    organizationId: input.organizationId,
    assignmentId: input.assignmentId ?? '',
    ...pageRequest(input),
  };
  const answer = await asUser(ctx).organizations.getProgress(request);
  return {
    items: answer.members.map(progressJson),
    nextCursor: answer.nextCursor || null,
    allMembers: answer.allMembers,
  };
}
