// Who the caller is in an organization, asked of identity (the truth of membership) with the caller's own
// internal token, on every call: a member removed a moment ago is refused at once. Someone outside the
// organization gets NOT_FOUND, as if it did not exist; a member without the permission gets
// PERMISSION_DENIED.

import type { Permissions, Resource } from '@engram/contracts/organizations';
import { SHARED_DECK_REASONS } from '@engram/contracts/shared-decks';
import { NotFound, PermissionDenied } from '@engram/kit/errors';
import { GrpcCallError, unary } from '@engram/kit/grpc/client';
import { askPeer } from '@engram/kit/grpc/peer';
import type { CallContext } from '@engram/kit/grpc/server';
import type { IdentityServiceClient } from '@engram/proto/identity/v1/identity';
import { status } from '@grpc/grpc-js';

const IDENTITY_CALL_MS = 3_000;

export interface MemberAccess {
  organizationId: string;
  userId: string;
  roles: string[];
  /** The caller's teams. */
  teamIds: string[];
  /** Every team of the organization. */
  organizationTeamIds: string[];
}

export const organizationNotFound = () => new NotFound('Organization not found.', 'ORGANIZATION_NOT_FOUND');

const callOptions = (ctx: CallContext) => ({
  token: ctx.token,
  timeoutMs: IDENTITY_CALL_MS,
  parentDeadline: ctx.deadline,
  signal: ctx.signal,
});

async function askIdentity<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await askPeer('Organizations cannot reach the account service right now. Please try again.', call);
  } catch (error) {
    if (error instanceof GrpcCallError && error.code === status.NOT_FOUND) throw organizationNotFound();
    throw error;
  }
}

/** The caller's membership of the organization; NOT_FOUND when they are not a member. */
export async function membership(
  identity: IdentityServiceClient,
  ctx: CallContext,
  organizationId: string,
): Promise<MemberAccess> {
  if (!organizationId) throw organizationNotFound();
  const answer = await askIdentity(() => unary(identity, identity.getMembership, { organizationId }, callOptions(ctx)));
  return {
    organizationId,
    userId: ctx.caller.userId,
    roles: answer.roles,
    teamIds: answer.teamIds,
    organizationTeamIds: answer.organizationTeamIds,
  };
}

/** Whether the caller's roles there (custom ones included) allow every action asked for. */
export async function allowed(
  identity: IdentityServiceClient,
  ctx: CallContext,
  organizationId: string,
  permissions: Permissions,
): Promise<boolean> {
  const request = Object.entries(permissions).map(([resource, actions]) => ({
    resource: resource as Resource,
    actions: [...(actions ?? [])],
  }));
  const answer = await askIdentity(() =>
    unary(identity, identity.checkPermission, { organizationId, permissions: request }, callOptions(ctx)),
  );
  return answer.allowed;
}

/** Refuses with PERMISSION_DENIED unless the caller may do all of it. */
export async function requirePermission(
  identity: IdentityServiceClient,
  ctx: CallContext,
  organizationId: string,
  permissions: Permissions,
  message: string,
): Promise<void> {
  if (!(await allowed(identity, ctx, organizationId, permissions))) {
    throw new PermissionDenied(message, SHARED_DECK_REASONS.permissionDenied);
  }
}
