// GetMembership: the caller's place in an organization, as other services ask identity for it. Membership
// truth is identity's (better-auth's members, teams and custom roles tables).
import { NotFound } from '@engram/kit/errors';
import type { CallContext } from '@engram/kit/grpc/server';
import type { GetMembershipRequest, Membership } from '@engram/proto/identity/v1/identity';
import type { Db } from '../db.js';
import { requireOrganizationId, rolesOf } from '../domain/membership.js';

export function getMembership(db: Db) {
  return async (request: GetMembershipRequest, ctx: CallContext): Promise<Membership> => {
    requireOrganizationId(request.organizationId);
    const member = await db.member.findUnique({
      where: { organizationId_userId: { organizationId: request.organizationId, userId: ctx.caller.userId } },
      include: { organization: true },
    });
    if (!member) throw new NotFound('Organization not found.', 'ORGANIZATION_NOT_FOUND');
    const [teams, organizationTeams] = await Promise.all([
      db.teamMember.findMany({
        where: { userId: ctx.caller.userId, team: { organizationId: request.organizationId } },
        select: { teamId: true },
      }),
      db.team.findMany({ where: { organizationId: request.organizationId }, select: { id: true } }),
    ]);
    return {
      organizationId: member.organizationId,
      organizationName: member.organization.name,
      organizationSlug: member.organization.slug,
      memberId: member.id,
      roles: rolesOf(member.role),
      teamIds: teams.map((team) => team.teamId),
      organizationTeamIds: organizationTeams.map((team) => team.id),
    };
  };
}
