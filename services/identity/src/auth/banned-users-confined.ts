// What a banned user may still do on /api/auth/*: read their session (the web app then shows /suspended)
// and sign out. Every other endpoint reached with a banned user's session, or with an API key they own,
// is refused with the admin plugin's own refusal at sign-in (403 BANNED_USER, BANNED_USER_MESSAGE) before
// it runs, so a kept session (banned-sessions.ts) cannot create organizations, invite (mail from Engram's
// domain), make API keys or change the account. A ban whose expiry has passed no longer counts.
import { defaultKeyHasher } from '@better-auth/api-key';
import { BANNED_USER_CODE } from '@engram/contracts/auth';
import { API_KEY_HEADER } from '@engram/contracts/auth-features';
import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthMiddleware, getSessionFromCtx } from 'better-auth/api';
import type { Db } from '../db.js';
import { banIsOver } from './banned-sessions.js';

/**
 * Reading the session and signing out (what /suspended needs), the installation's public settings (no
 * session involved), and an admin's way back out of an impersonation of a user banned meanwhile.
 */
const LEFT_TO_BANNED_USERS = new Set([
  '/get-session',
  '/sign-out',
  '/public-config',
  '/ok',
  '/admin/stop-impersonating',
]);

type BanFields = { banned?: boolean | null; banExpires?: Date | string | null };

const isBanned = (user: BanFields | null | undefined) => Boolean(user?.banned) && !banIsOver(user ?? {});

export function bannedUsersConfined(db: Db, message: string): BetterAuthPlugin {
  const refusal = () => new APIError('FORBIDDEN', { code: BANNED_USER_CODE, message });

  /** The owner of the key, whether or not the key itself is still usable: a banned owner is refused either way. */
  async function keyOwnerIsBanned(key: string) {
    const found = await db.apikey.findFirst({
      where: { key: await defaultKeyHasher(key) },
      select: { user: { select: { banned: true, banExpires: true } } },
    });
    return isBanned(found?.user);
  }

  return {
    id: 'engram-banned-users-confined',
    hooks: {
      before: [
        {
          matcher: (ctx) => !LEFT_TO_BANNED_USERS.has(ctx.path ?? ''),
          handler: createAuthMiddleware(async (ctx) => {
            const key = ctx.headers?.get(API_KEY_HEADER);
            if (key && (await keyOwnerIsBanned(key))) throw refusal();
            if (!ctx.headers?.get('cookie') && !ctx.headers?.get('authorization')) return;
            const session = await getSessionFromCtx(ctx);
            if (isBanned(session?.user as BanFields | undefined)) throw refusal();
          }),
        },
      ],
    },
  };
}
