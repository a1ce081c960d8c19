// One refusal for a sensitive action on a stale session (older than SESSION_FRESH_AGE_SECONDS), in the words of
// docs/product.md#states-and-transitions: 403 SESSION_NOT_FRESH "Your session is not fresh. Please sign in again.".
// better-auth checks freshness itself but words it two ways: SESSION_NOT_FRESH "Session is not fresh" (listing
// sessions, ...), reworded here after the fact; and, for deleting the account without a password, 400
// SESSION_EXPIRED, which is checked here before better-auth gets to it (an after hook cannot change a status).
import { SESSION_FRESH_AGE_SECONDS, SESSION_NOT_FRESH_MESSAGE } from '@engram/contracts/auth';
import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthMiddleware, getSessionFromCtx, isAPIError } from 'better-auth/api';

const NOT_FRESH = 'SESSION_NOT_FRESH';
const notFresh = () => new APIError('FORBIDDEN', { code: NOT_FRESH, message: SESSION_NOT_FRESH_MESSAGE });

const isStale = (createdAt: Date | string) =>
  Date.now() - new Date(createdAt).getTime() >= SESSION_FRESH_AGE_SECONDS * 1_000;

export function freshSessions(): BetterAuthPlugin {
  return {
    id: 'engram-fresh-sessions',
    hooks: {
      before: [
        {
          // Without a password (or a mailed deletion token) only a fresh session may delete the account.
          matcher: (ctx) => ctx.path === '/delete-user',
          handler: createAuthMiddleware(async (ctx) => {
            const body = (ctx.body ?? {}) as { password?: unknown; token?: unknown };
            if (body.password || body.token) return;
            const session = await getSessionFromCtx(ctx);
            if (session && isStale(session.session.createdAt)) throw notFresh();
          }),
        },
      ],
      after: [
        {
          matcher: (ctx) => {
            const returned = ctx.context.returned;
            return isAPIError(returned) && (returned.body as { code?: string } | undefined)?.code === NOT_FRESH;
          },
          handler: createAuthMiddleware(async () => {
            throw notFresh();
          }),
        },
      ],
    },
  };
}
