// GetMembership and CheckPermission: what other services ask identity about the caller's place in an
// organization. Membership truth is identity's (better-auth's members, teams and custom roles tables);
// permissions are decided by the same access-control roles better-auth's /organization/has-permission
// uses, with the organization's custom roles merged over the built-in ones as better-auth merges them.
import { Invalid, NotFound } from '@engram/kit/errors';
import type { CallContext } from '@engram/kit/grpc/server';
import type {
  CheckPermissionRequest,
  CheckPermissionResponse,
  GetMembershipRequest,
  Membership,
} from '@engram/proto/identity/v1/identity';
import { accessControl, organizationRoles } from '../auth/organizations.js';
import type { Db } from '../db.js';

type Statements = Record<string, string[]>;

/** better-auth keeps several roles as one comma-separated text. */
const rolesOf = (role: string) =>
  role
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);

function requireOrganizationId(organizationId: string): void {
  if (!organizationId) throw new Invalid('organization_id is required.');
}

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

export function checkPermission(db: Db) {
  return async (request: CheckPermissionRequest, ctx: CallContext): Promise<CheckPermissionResponse> => {
    requireOrganizationId(request.organizationId);
    if (request.permissions.length === 0) throw new Invalid('At least one permission is required.');
    const member = await db.member.findUnique({
      where: { organizationId_userId: { organizationId: request.organizationId, userId: ctx.caller.userId } },
      select: { role: true },
    });
    if (!member) return { allowed: false, roles: [] };
    const roles = rolesOf(member.role);
    const asked: Statements = {};
    for (const { resource, actions } of request.permissions) asked[resource] = [...(asked[resource] ?? []), ...actions];
    const custom = await db.organizationRole.findMany({
      where: { organizationId: request.organizationId, role: { in: roles } },
    });
    const allowed = roles.some((name) => {
      const builtIn = organizationRoles[name as keyof typeof organizationRoles]?.statements as Statements | undefined;
      const merged: Statements = { ...builtIn };
      const extra = custom.find((row) => row.role === name);
      if (!builtIn && !extra) return false;
      if (extra) {
        for (const [resource, actions] of Object.entries(JSON.parse(extra.permission) as Statements)) {
          merged[resource] = [...new Set([...(merged[resource] ?? []), ...actions])];
        }
      }
      return accessControl.newRole(merged as never).authorize(asked as never).success;
    });
    return { allowed, roles };
  };
}
