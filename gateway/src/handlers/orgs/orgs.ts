// orgs.*: learning together in an organization, thin adapters over the organizations service's gRPC API.
// Its token also names identity (asked for the caller's membership and permissions on every call) and
// cards (asked for the publisher's cards when a deck is published or synced).
import {
  assignmentInput,
  type CreateAssignmentInput,
  createAssignmentInput,
  deckInput,
  listAssignmentsInput,
  organizationInput,
  type PublishDeckInput,
  progressInput,
  publishDeckInput,
} from '@engram/contracts/shared-decks';
import type { Assignment, Deck, MemberProgress } from '@engram/proto/organizations/v1/organizations';
import type { z } from 'zod';
import { callAsUser } from '../../call.js';
import type { ProtectedContext } from '../../trpc.js';

export {
  assignmentInput,
  createAssignmentInput,
  deckInput,
  listAssignmentsInput,
  organizationInput,
  progressInput,
  publishDeckInput,
};

const ORGS_AUDIENCES = ['organizations', 'identity', 'cards'];
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

export async function decks({ ctx, input }: Call<z.infer<typeof organizationInput>>): Promise<DeckJson[]> {
  const { organizations } = ctx.services;
  const answer = await callAsUser(ctx, ORGS_AUDIENCES, organizations, organizations.listDecks, input);
  return answer.decks.map(deckJson);
}

export async function publishDeck({ ctx, input }: Call<PublishDeckInput>): Promise<DeckJson> {
  const { organizations } = ctx.services;
  const request = {
    organizationId: input.organizationId,
    teamId: input.teamId ?? '',
    name: input.name,
    description: input.description ?? '',
    tagId: input.tagId,
  };
  return deckJson(
    await callAsUser(ctx, ORGS_AUDIENCES, organizations, organizations.publishDeck, request, PUBLISH_CALL),
  );
}

export async function syncDeck({ ctx, input }: Call<z.infer<typeof deckInput>>): Promise<DeckJson> {
  const { organizations } = ctx.services;
  return deckJson(await callAsUser(ctx, ORGS_AUDIENCES, organizations, organizations.syncDeck, input, PUBLISH_CALL));
}

export async function deleteDeck({ ctx, input }: Call<z.infer<typeof deckInput>>): Promise<{ deleted: true }> {
  const { organizations } = ctx.services;
  await callAsUser(ctx, ORGS_AUDIENCES, organizations, organizations.deleteDeck, input);
  return { deleted: true };
}

export async function subscribe({ ctx, input }: Call<z.infer<typeof deckInput>>): Promise<DeckJson> {
  const { organizations } = ctx.services;
  return deckJson(await callAsUser(ctx, ORGS_AUDIENCES, organizations, organizations.subscribe, input));
}

export async function unsubscribe({ ctx, input }: Call<z.infer<typeof deckInput>>): Promise<DeckJson> {
  const { organizations } = ctx.services;
  return deckJson(await callAsUser(ctx, ORGS_AUDIENCES, organizations, organizations.unsubscribe, input));
}

export async function createAssignment({ ctx, input }: Call<CreateAssignmentInput>): Promise<AssignmentJson> {
  const { organizations } = ctx.services;
  const request = { ...input, teamId: input.teamId ?? '', dueAt: new Date(input.dueAt) };
  return assignmentJson(await callAsUser(ctx, ORGS_AUDIENCES, organizations, organizations.createAssignment, request));
}

export async function deleteAssignment({
  ctx,
  input,
}: Call<z.infer<typeof assignmentInput>>): Promise<{ deleted: true }> {
  const { organizations } = ctx.services;
  await callAsUser(ctx, ORGS_AUDIENCES, organizations, organizations.deleteAssignment, input);
  return { deleted: true };
}

export async function assignments({
  ctx,
  input,
}: Call<z.infer<typeof listAssignmentsInput>>): Promise<AssignmentJson[]> {
  const { organizations } = ctx.services;
  const request = { organizationId: input?.organizationId ?? '' };
  const answer = await callAsUser(ctx, ORGS_AUDIENCES, organizations, organizations.listAssignments, request);
  return answer.assignments.map(assignmentJson);
}

export async function progress({
  ctx,
  input,
}: Call<z.infer<typeof progressInput>>): Promise<{ members: ProgressJson[]; allMembers: boolean }> {
  const { organizations } = ctx.services;
  const request = { organizationId: input.organizationId, assignmentId: input.assignmentId ?? '' };
  const answer = await callAsUser(ctx, ORGS_AUDIENCES, organizations, organizations.getProgress, request);
  return { members: answer.members.map(progressJson), allMembers: answer.allMembers };
}
