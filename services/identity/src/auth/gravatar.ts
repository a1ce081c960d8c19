// GET /api/auth/gravatar?size=N: the signed-in user's Gravatar, fetched here and served from Engram's own
// origin. The learner's browser never asks gravatar.com (which would learn their address and email hash from
// every page), and the CSP keeps images to Engram itself. Only the caller's own picture: the email comes
// from the session, so nobody can look up another address's hash through Engram.
import { createHash } from 'node:crypto';
import type { BetterAuthPlugin } from 'better-auth';
import { createAuthEndpoint, sessionMiddleware } from 'better-auth/api';
import { z } from 'zod';

/** Gravatar serves sizes from 1 to 2048 pixels. */
export const GRAVATAR_MIN_SIZE = 1;
export const GRAVATAR_MAX_SIZE = 2048;
/** A picture larger than this is not one Gravatar would send: it is refused rather than passed on. */
const MAX_PICTURE_BYTES = 1024 * 1024;
/** Browsers keep the picture for an hour; a changed Gravatar shows up after that. */
const BROWSER_CACHE = 'private, max-age=3600';

export interface GravatarSettings {
  /** Gravatar's avatar endpoint (`https://gravatar.com/avatar`), or null when Engram shows initials only. */
  baseUrl: string | null;
  /** How long Gravatar may take before the avatar falls back to initials. */
  timeoutMs: number;
}

const query = z.object({
  size: z.coerce.number().int().min(GRAVATAR_MIN_SIZE).max(GRAVATAR_MAX_SIZE).default(96),
});

// No picture is no error: 204, which the avatar takes as "show the initials" without the browser logging a
// failed request on every page (a 404 would be).
const noPicture = () => new Response(null, { status: 204, headers: { 'cache-control': BROWSER_CACHE } });

/** Gravatar's key of an address: SHA-256 of the trimmed, lower-cased email. */
export const gravatarHash = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest('hex');

export function gravatar(settings: GravatarSettings): BetterAuthPlugin {
  return {
    id: 'engram-gravatar',
    endpoints: {
      getGravatar: createAuthEndpoint('/gravatar', { method: 'GET', query, use: [sessionMiddleware] }, async (ctx) => {
        if (!settings.baseUrl) return noPicture();
        const url = `${settings.baseUrl}/${gravatarHash(ctx.context.session.user.email)}?s=${ctx.query.size}&d=404`;
        // Whatever goes wrong out there (no Gravatar, a timeout, an odd answer), the avatar shows initials.
        try {
          const answer = await fetch(url, { signal: AbortSignal.timeout(settings.timeoutMs), redirect: 'error' });
          const type = answer.headers.get('content-type') ?? '';
          if (!answer.ok || !/^image\/(png|jpeg|gif|webp)$/.test(type)) return noPicture();
          const bytes = await answer.arrayBuffer();
          if (bytes.byteLength > MAX_PICTURE_BYTES) return noPicture();
          return new Response(bytes, {
            headers: { 'content-type': type, 'cache-control': BROWSER_CACHE, 'x-content-type-options': 'nosniff' },
          });
        } catch {
          return noPicture();
        }
      }),
    },
  };
}
