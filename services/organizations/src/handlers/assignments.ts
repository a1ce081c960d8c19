// CreateAssignment, DeleteAssignment and ListAssignments: a deck assigned to a team or the whole
// organization, with a due date and a target (cards learned, or a retention). A member lists the
// assignments meant for them, each with their own progress; those who manage assignments list them all.
import { checkAssignment, LEARNING_REASONS } from '@engram/contracts/shared-decks';
import { Invalid, NotFound } from '@engram/kit/errors';
import { prismaTransaction } from '@engram/kit/events/outbox';
import type { CallContext } from '@engram/kit/grpc/server';
import type {
  Assignment as AssignmentMessage,
  CreateAssignmentRequest,
  DeleteAssignmentRequest,
  DeleteAssignmentResponse,
  ListAssignmentsRequest,
  ListAssignmentsResponse,
} from '@engram/proto/organizations/v1/organizations';
import { allowed, membership, requirePermission } from '../access.js';
import type { OrganizationsDeps } from '../deps.js';
import { assignmentCreated } from '../domain/deck-events.js';
import { deckNotFound } from '../domain/decks.js';
import { decodeTimedCursor, pageOf, pageSizeOf, timedCursor } from '../domain/pages.js';
import { progressPerDeck, withTarget } from '../domain/progress.js';
import { refusal } from '../domain/refusal.js';
import type { Assignment, Deck } from '../generated/prisma/client.js';
import { isId } from '../ids.js';

export const assignmentNotFound = () => new NotFound('Assignment not found.', LEARNING_REASONS.assignmentNotFound);

/** The assignments' messages for `userId`, with their own progress and subscriptions (a few queries in all). */
async function assignmentMessages(
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

export function createAssignment(deps: OrganizationsDeps) {
  return async (request: CreateAssignmentRequest, ctx: CallContext): Promise<AssignmentMessage> => {
    const access = await membership(deps.identity, ctx, request.organizationId);
    await requirePermission(
      deps.identity,
      ctx,
      access.organizationId,
      { assignment: ['create'] },
      'You are not allowed to assign decks in this organization.',
    );
    const deck = isId(request.deckId)
      ? await deps.db.deck.findFirst({ where: { id: request.deckId, organizationId: access.organizationId } })
      : null;
    if (!deck) throw deckNotFound();
    if (request.teamId && !access.organizationTeamIds.includes(request.teamId)) {
      throw new Invalid('That team is not in this organization.', 'TEAM_NOT_FOUND');
    }
    if (deck.teamId && request.teamId !== deck.teamId) {
      throw new Invalid(
        'This deck is shared with one team; assign it to that team.',
        LEARNING_REASONS.deckTeamMismatch,
      );
    }
    const cardCount = await deps.db.deckCard.count({ where: { deckId: deck.id, withdrawn: false } });
    const { value: terms, problems } = checkAssignment(
      { ...request, dueAt: request.dueAt?.toISOString() ?? '' },
      { cardCount, now: Date.now() },
    );
    if (problems) throw refusal(problems);
    const assignment = await prismaTransaction(deps.db, async (tx) => {
      const created = await tx.assignment.create({
        data: {
          organizationId: access.organizationId,
          deckId: deck.id,
          teamId: request.teamId || null,
          ...terms,
          createdBy: ctx.caller.userId,
        },
        include: { deck: true },
      });
      await assignmentCreated(tx, created, deck.name);
      return created;
    });
    ctx.logger.info({ assignment: assignment.id, deck: deck.id }, 'deck assigned');
    const [message] = await assignmentMessages(deps, [assignment], ctx.caller.userId);
    return message as AssignmentMessage;
  };
}

export function deleteAssignment(deps: OrganizationsDeps) {
  return async (request: DeleteAssignmentRequest, ctx: CallContext): Promise<DeleteAssignmentResponse> => {
    const assignment = isId(request.assignmentId)
      ? await deps.db.assignment.findUnique({ where: { id: request.assignmentId } })
      : null;
    if (!assignment) throw assignmentNotFound();
    try {
      await membership(deps.identity, ctx, assignment.organizationId);
    } catch (error) {
      if (error instanceof NotFound) throw assignmentNotFound();
      throw error;
    }
    await requirePermission(
      deps.identity,
      ctx,
      assignment.organizationId,
      { assignment: ['delete'] },
      'You are not allowed to remove assignments in this organization.',
    );
    await deps.db.assignment.deleteMany({ where: { id: assignment.id } });
    return {};
  };
}

/** The organizations and teams whose assignments are the caller's: identity's answer for one
 * organization, the membership read model across all of them (the dashboard). */
async function audience(deps: OrganizationsDeps, ctx: CallContext, organizationId: string) {
  const userId = ctx.caller.userId;
  if (organizationId) {
    const access = await membership(deps.identity, ctx, organizationId);
    const managesAll = await allowed(deps.identity, ctx, organizationId, { assignment: ['update'] });
    return { organizationIds: [organizationId], teamIds: access.teamIds, managesAll };
  }
  const [members, teams] = await Promise.all([
    deps.db.member.findMany({ where: { userId }, select: { organizationId: true } }),
    deps.db.teamMember.findMany({ where: { userId }, select: { teamId: true } }),
  ]);
  return {
    organizationIds: members.map((member) => member.organizationId),
    teamIds: teams.map((team) => team.teamId),
    managesAll: false,
  };
}

export function listAssignments(deps: OrganizationsDeps) {
  return async (request: ListAssignmentsRequest, ctx: CallContext): Promise<ListAssignmentsResponse> => {
    const size = pageSizeOf(request.pageSize);
    const after = request.cursor ? decodeTimedCursor('assignments', request.cursor) : undefined;
    const { organizationIds, teamIds, managesAll } = await audience(deps, ctx, request.organizationId);
    if (organizationIds.length === 0) return { assignments: [], nextCursor: '' };
    const rows = await deps.db.assignment.findMany({
      where: {
        organizationId: { in: organizationIds },
        AND: [
          ...(managesAll ? [] : [{ OR: [{ teamId: null }, { teamId: { in: teamIds } }] }]),
          ...(after ? [{ OR: [{ dueAt: { gt: after.at } }, { dueAt: after.at, id: { gt: after.id } }] }] : []),
        ],
      },
      include: { deck: true },
      orderBy: [{ dueAt: 'asc' }, { id: 'asc' }],
      take: size + 1,
    });
    const page = pageOf(rows, size, (row) => timedCursor('assignments', { at: row.dueAt, id: row.id }));
    return {
      assignments: await assignmentMessages(deps, page.items, ctx.caller.userId),
      nextCursor: page.nextCursor,
    };
  };
}
