// ListAssignments: a member lists the assignments meant for them, each with their own progress; those who
// manage assignments list them all.
import type { CallContext } from '@engram/kit/grpc/server';
import type { ListAssignmentsRequest, ListAssignmentsResponse } from '@engram/proto/organizations/v1/organizations';
import { allowed, membership } from '../access.js';
import type { OrganizationsDeps } from '../deps.js';
import { assignmentMessages } from '../domain/assignments.js';
import { decodeTimedCursor, pageOf, pageSizeOf, timedCursor } from '../domain/pages.js';

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
