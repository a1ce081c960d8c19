// ExportUserData: the caller's account as identity holds it, their part of a full data export (the gateway
// gathers it for cards' export job). Read from better-auth's tables, field by field, so nothing that opens the
// account leaves: no session token, OAuth token, password hash, API key, passkey public key, TOTP secret or
// backup code, and no verification row (each is a one-time secret). Other people appear only as the
// organizations and teams the caller shares with them.
import { NotFound } from '@engram/kit/errors';
import type { CallContext } from '@engram/kit/grpc/server';
import type { ExportUserDataRequest, ExportUserDataResponse } from '@engram/proto/identity/v1/identity';
import type { Db } from '../db.js';
import { rolesOf } from '../domain/membership.js';

/** An API key's metadata as its owner set it: JSON text, read back as JSON when it is. */
function metadataOf(text: string | null): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

async function accountOf(db: Db, userId: string, currentSessionId: string) {
  const user = await db.user.findUnique({
    where: { id: userId },
    include: {
      accounts: { orderBy: { createdAt: 'asc' } },
      sessions: { orderBy: { createdAt: 'asc' } },
      passkeys: { orderBy: { createdAt: 'asc' } },
      apiKeys: { orderBy: { createdAt: 'asc' } },
      members: { include: { organization: true }, orderBy: { createdAt: 'asc' } },
      teamMembers: { include: { team: true } },
    },
  });
  if (!user) throw new NotFound('Account not found.', 'USER_NOT_FOUND');
  const invitations = await db.invitation.findMany({
    where: { email: user.email },
    include: { organization: true },
    orderBy: { createdAt: 'asc' },
  });
  return {
    profile: {
      id: user.id,
      name: user.name,
      email: user.email,
      emailVerified: user.emailVerified,
      image: user.image,
      username: user.displayUsername ?? user.username,
      phoneNumber: user.phoneNumber,
      role: user.role ?? 'user',
      banned: Boolean(user.banned),
      banReason: user.banReason,
      banExpires: user.banExpires,
      onboardedAt: user.onboardedAt,
      createdAt: user.createdAt,
      updatedAt: user.updatedAt,
    },
    signInMethods: user.accounts.map((account) => ({
      provider: account.providerId,
      // The provider's id for the learner (theirs at Google or GitHub; their own user id for a password).
      accountId: account.accountId,
      hasPassword: account.password !== null,
      scopes: account.scope ? account.scope.split(/[\s,]+/).filter(Boolean) : [],
      linkedAt: account.createdAt,
    })),
    sessions: user.sessions.map((session) => ({
      current: session.id === currentSessionId,
      createdAt: session.createdAt,
      lastActiveAt: session.updatedAt,
      expiresAt: session.expiresAt,
      ipAddress: session.ipAddress,
      userAgent: session.userAgent,
      startedByAnAdministrator: session.impersonatedBy !== null,
    })),
    passkeys: user.passkeys.map((passkey) => ({
      name: passkey.name,
      deviceType: passkey.deviceType,
      backedUp: passkey.backedUp,
      createdAt: passkey.createdAt,
    })),
    apiKeys: user.apiKeys.map((key) => ({
      name: key.name,
      // The first characters, as the account page shows them: enough to recognise a key, not to use it.
      start: key.start,
      prefix: key.prefix,
      enabled: key.enabled ?? true,
      createdAt: key.createdAt,
      expiresAt: key.expiresAt,
      lastUsedAt: key.lastRequest,
      uses: key.requestCount ?? 0,
      remainingUses: key.remaining,
      metadata: metadataOf(key.metadata),
    })),
    twoFactor: { enabled: Boolean(user.twoFactorEnabled) },
    memberships: user.members.map((member) => ({
      organization: { id: member.organizationId, name: member.organization.name, slug: member.organization.slug },
      roles: rolesOf(member.role),
      teams: user.teamMembers
        .filter((teamMember) => teamMember.team.organizationId === member.organizationId)
        .map((teamMember) => ({ id: teamMember.teamId, name: teamMember.team.name, joinedAt: teamMember.createdAt })),
      joinedAt: member.createdAt,
    })),
    invitations: invitations.map((invitation) => ({
      organization: {
        id: invitation.organizationId,
        name: invitation.organization.name,
        slug: invitation.organization.slug,
      },
      role: invitation.role,
      status: invitation.status,
      createdAt: invitation.createdAt,
      expiresAt: invitation.expiresAt,
    })),
  };
}

export function exportUserData(db: Db) {
  return async (_request: ExportUserDataRequest, ctx: CallContext): Promise<ExportUserDataResponse> => {
    const account = await accountOf(db, ctx.caller.userId, ctx.caller.sessionId);
    return { json: JSON.stringify(account) };
  };
}
