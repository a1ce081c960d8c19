// A user an admin bans keeps their sessions, flagged by the user's banned field, so the web app sends them to
// /suspended (docs/product.md#states-and-transitions) and the gateway refuses every API call of theirs (403,
// BANNED_USER's words), instead of better-auth's default of ending them (which would only show the sign-in form).
// Signing in again stays refused (the admin plugin's BANNED_USER). The cached copies of their sessions in Redis are
// dropped on a ban and an unban: each carries the user as it was, and dropping one tells every gateway to ask
// identity again (secondary-storage.ts), which then reads the session and the user from PostgreSQL.
import type { BetterAuthOptions, BetterAuthPlugin } from 'better-auth';
import { createAuthMiddleware } from 'better-auth/api';
import type { Db } from '../db.js';
import type { SecondaryStorage } from '../secondary-storage.js';

const BAN = '/admin/ban-user';
const UNBAN = '/admin/unban-user';

async function dropCachedSessions(db: Db, storage: SecondaryStorage | undefined, userId: string) {
  if (!storage) return;
  const sessions = await db.session.findMany({ where: { userId }, select: { token: true } });
  for (const { token } of sessions) await storage.delete(token);
}

/** The session hook: better-auth's ban deletes the user's sessions, which is refused (and their cache dropped). */
export function keepSessionsOfBannedUsers(
  db: Db,
  storage: SecondaryStorage | undefined,
): NonNullable<NonNullable<BetterAuthOptions['databaseHooks']>['session']> {
  return {
    delete: {
      async before(session, ctx) {
        if (ctx?.path !== BAN) return;
        await dropCachedSessions(db, storage, session.userId);
        return false;
      },
    },
  };
}

type SessionAnswer = {
  session: unknown;
  user: { id: string; banned?: boolean | null; banExpires?: Date | string | null };
};

/** A ban with an expiry that has passed: it no longer holds, though the user row may still say banned. */
export const banIsOver = (user: Pick<SessionAnswer['user'], 'banned' | 'banExpires'>) =>
  Boolean(user.banned && user.banExpires && new Date(user.banExpires).getTime() <= Date.now());

/**
 * After an unban, the user's sessions are read afresh too. A ban with an expiry ends by itself: the first
 * session lookup after it (the web app's or the gateway's) lifts it, as better-auth does at sign-in.
 */
export function unbannedSessionsRefreshed(db: Db, storage: SecondaryStorage | undefined): BetterAuthPlugin {
  return {
    id: 'engram-unbanned-sessions',
    hooks: {
      after: [
        {
          matcher: (ctx) => ctx.path === '/get-session',
          handler: createAuthMiddleware(async (ctx) => {
            const answer = ctx.context.returned as SessionAnswer | null | undefined;
            if (!answer?.user || !banIsOver(answer.user)) return;
            const lifted = { banned: false, banReason: null, banExpires: null };
            await ctx.context.internalAdapter.updateUser(answer.user.id, lifted);
            await dropCachedSessions(db, storage, answer.user.id);
            return ctx.json({ ...answer, user: { ...answer.user, ...lifted } });
          }),
        },
        {
          matcher: (ctx) => ctx.path === UNBAN,
          handler: createAuthMiddleware(async (ctx) => {
            const userId = (ctx.body as { userId?: unknown } | undefined)?.userId;
            if (typeof userId === 'string' && !(ctx.context.returned instanceof Error)) {
              await dropCachedSessions(db, storage, userId);
            }
          }),
        },
      ],
    },
  };
}
