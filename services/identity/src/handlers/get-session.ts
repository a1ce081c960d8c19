// GetSession: resolves the session a browser request carries (cookie) or an Authorization header.
import type { CallContext } from '@engram/kit/grpc/server';
import type { Caller } from '@engram/kit/internal-auth';
import type { GetSessionRequest, GetSessionResponse } from '@engram/proto/identity/v1/identity';
import type { Auth } from '../auth.js';

const SIGNED_OUT: GetSessionResponse = {
  authenticated: false,
  sessionId: '',
  user: undefined,
  activeOrganizationId: '',
};

export function getSession(auth: Auth) {
  return async (request: GetSessionRequest, _ctx: CallContext<Caller>): Promise<GetSessionResponse> => {
    if (!request.cookie && !request.authorization) return SIGNED_OUT;
    const headers = new Headers();
    if (request.cookie) headers.set('cookie', request.cookie);
    if (request.authorization) headers.set('authorization', request.authorization);
    const result = await auth.api.getSession({ headers });
    if (!result) return SIGNED_OUT;
    const { session, user } = result;
    return {
      authenticated: true,
      sessionId: session.id,
      user: {
        id: user.id,
        email: user.email,
        name: user.name,
        role: user.role ?? 'user',
        banned: Boolean(user.banned),
        emailVerified: user.emailVerified,
      },
      activeOrganizationId: '',
    };
  };
}
