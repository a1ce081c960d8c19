// Assignments as the caller sees them: the assignment message with their own progress and subscription,
// and the refusal for one that is not there (or not theirs to see).
import { SHARED_DECK_REASONS } from '@engram/contracts/shared-decks';
import { NotFound } from '@engram/kit/errors';
import type { Assignment as AssignmentMessage } from '@engram/proto/organizations/v1/organizations';
import type { OrganizationsDeps } from '../deps.js';
import type { Assignment, Deck } from '../generated/prisma/client.js';
import { progressPerDeck, withTarget } from './progress.js';

export const assignmentNotFound = () => new NotFound('Assignment not found.', SHARED_DECK_REASONS.assignmentNotFound);

/** The assignments' messages for `userId`, with their own progress and subscriptions (a few queries in all). */
export async function assignmentMessages(
  deps: OrganizationsDeps,
  assignments: (Assignment & { deck: Deck })[],
  userId: string,
): Promise<AssignmentMessage[]> {
  const deckIds = [...new Set(assignments.map((assignment) => assignment.deckId))];
  const [progress, subscriptions] = await Promise.all([
    progressPerDeck(deps.db, deckIds, userId),
    deps.db.subscription.findMany({ where: { userId, deckId: { in: deckIds } }, select: { deckId: true } }),
  ]);
  const subscribed = new Set(subscriptions.map((subscription) => subscription.deckId));
  return assignments.map((assignment) => {
    const target = { kind: assignment.targetKind, value: assignment.targetValue };
    const mine = progress.get(assignment.deckId);
    return assignmentMessage(assignment, mine && withTarget(mine, target), subscribed.has(assignment.deckId));
  });
}

function assignmentMessage(
  assignment: Assignment & { deck: Deck },
  mine: AssignmentMessage['mine'],
  subscribed: boolean,
): AssignmentMessage {
  return {
    id: assignment.id,
    organizationId: assignment.organizationId,
    deckId: assignment.deckId,
    deckName: assignment.deck.name,
    teamId: assignment.teamId ?? '',
    dueAt: assignment.dueAt,
    targetKind: assignment.targetKind,
    targetValue: assignment.targetValue,
    createdBy: assignment.createdBy,
    createdAt: assignment.createdAt,
    mine,
    subscribed,
  };
}
