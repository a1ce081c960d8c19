// GetProgress: per member, over the organization's decks or one assignment's deck. Those with
// progress:read (owners and admins, or a custom role given it) see every member of the organization (or
// of the assignment's team) by the membership read model; everyone else sees only themselves.
import type { CallContext } from '@engram/kit/grpc/server';
import type { GetProgressRequest, GetProgressResponse } from '@engram/proto/organizations/v1/organizations';
import { allowed, membership } from '../access.js';
import type { OrganizationsDeps } from '../deps.js';
import { progressOf } from '../domain/progress.js';
import { isId } from '../peers.js';
import { assignmentNotFound } from './assignments.js';

export function getProgress(deps: OrganizationsDeps) {
  return async (request: GetProgressRequest, ctx: CallContext): Promise<GetProgressResponse> => {
    const access = await membership(deps.identity, ctx, request.organizationId);
    const allMembers = await allowed(deps.identity, ctx, access.organizationId, { progress: ['read'] });
    const { db } = deps;
    let deckIds: string[];
    let teamId: string | null = null;
    let target: { kind: string; value: number } | undefined;
    if (request.assignmentId) {
      const assignment = isId(request.assignmentId)
        ? await db.assignment.findFirst({ where: { id: request.assignmentId, organizationId: access.organizationId } })
        : null;
      if (!assignment) throw assignmentNotFound();
      if (!allMembers && assignment.teamId && !access.teamIds.includes(assignment.teamId)) throw assignmentNotFound();
      deckIds = [assignment.deckId];
      teamId = assignment.teamId;
      target = { kind: assignment.targetKind, value: assignment.targetValue };
    } else {
      const decks = await db.deck.findMany({ where: { organizationId: access.organizationId }, select: { id: true } });
      deckIds = decks.map((deck) => deck.id);
    }
    let userIds = [ctx.caller.userId];
    if (allMembers) {
      const members = await db.member.findMany({
        where: { organizationId: access.organizationId },
        select: { userId: true },
      });
      const inTeam =
        teamId &&
        new Set(
          (await db.teamMember.findMany({ where: { teamId }, select: { userId: true } })).map((row) => row.userId),
        );
      const roster = inTeam ? members.filter((member) => inTeam.has(member.userId)) : members;
      userIds = roster.map((row) => row.userId).sort();
    }
    if (!userIds.length) return { members: [], allMembers };
    return { members: await progressOf(db, deckIds, userIds, target), allMembers };
  };
}
