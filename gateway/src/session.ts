// Resolves the session of one request (cookie or Authorization header) by asking identity, once per
// request; the result decides what the request may do and which internal token services receive.
import { unary } from '@engram/kit/grpc/client';
import type { UserCaller } from '@engram/kit/internal-auth';
import type { Services } from './clients.js';

export interface SessionInfo {
  caller: Omit<UserCaller, 'kind'>;
  user: { id: string; email: string; name: string; role: string; banned: boolean };
}

const SESSION_LOOKUP_TIMEOUT_MS = 3_000;

export async function resolveSession(
  services: Services,
  headers: { cookie?: string | undefined; authorization?: string | undefined },
): Promise<SessionInfo | null> {
  if (!headers.cookie && !headers.authorization) return null;
  const token = await services.signer.signSystem('gateway', 'identity');
  const result = await unary(
    services.identity,
    services.identity.getSession,
    { cookie: headers.cookie ?? '', authorization: headers.authorization ?? '' },
    { token, timeoutMs: SESSION_LOOKUP_TIMEOUT_MS },
  );
  if (!result.authenticated || !result.user) return null;
  return {
    caller: {
      userId: result.user.id,
      sessionId: result.sessionId,
      role: result.user.role,
      activeOrganizationId: result.activeOrganizationId || null,
    },
    user: result.user,
  };
}
