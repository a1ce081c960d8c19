// CreateAssignment: a deck assigned to a team or the whole organization, with a due date and a target
// (cards learned, or a retention).
import { checkAssignment, SHARED_DECK_REASONS } from '@engram/contracts/shared-decks';
import { Invalid } from '@engram/kit/errors';
import { prismaTransaction } from '@engram/kit/events/outbox';
import type { CallContext } from '@engram/kit/grpc/server';
import type {
  Assignment as AssignmentMessage,
  CreateAssignmentRequest,
} from '@engram/proto/organizations/v1/organizations';
import { membership, requirePermission } from '../access.js';
import type { OrganizationsDeps } from '../deps.js';
import { assignmentMessages } from '../domain/assignments.js';
import { assignmentCreated } from '../domain/deck-events.js';
import { deckNotFound } from '../domain/decks.js';
import { refusal } from '../domain/refusal.js';
import { isId } from '../ids.js';

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
        SHARED_DECK_REASONS.deckTeamMismatch,
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
