// CheckPermission: whether the caller may do something in an organization. Decided by the same
// access-control roles better-auth's /organization/has-permission uses, with the organization's custom
// roles merged over the built-in ones as better-auth merges them.
import { Invalid } from '@engram/kit/errors';
import type { CallContext } from '@engram/kit/grpc/server';
import type { CheckPermissionRequest, CheckPermissionResponse } from '@engram/proto/identity/v1/identity';
import { accessControl, organizationRoles } from '../auth/organizations.js';
import type { Db } from '../db.js';
import { requireOrganizationId, rolesOf } from '../domain/membership.js';

type Statements = Record<string, string[]>;

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
