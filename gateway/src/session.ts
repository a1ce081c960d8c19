// Resolves the session of one request (cookie or Authorization header) by asking identity; the result
// decides what the request may do and which internal token services receive.
//
// A signed-in session is remembered for SESSION_CACHE_MS. Asking identity on every request cost more
// than the review it guarded (an internal token signed and verified, a gRPC round trip, better-auth's
// cookie check and a Redis read): the review benchmark spent most of its gateway time there. What keeps
// the cache from being wrong:
// - identity announces every session it ends (sign-out, revocation, password reset, ban, deleted account)
//   and every replica forgets that session at once (`revoke`, fed by session-revocations.ts), so a revoked
//   session is refused on its very next request; answers about a token just revoked are not remembered
//   for a while either, since identity may still have been finishing the revocation when it answered;
// - while that announcement cannot be heard (no Redis subscription), nothing is remembered at all;
// - a state-changing /api/auth request through this replica forgets the credentials it carried (`forget`);
// - only signed-in answers are remembered, so signing in never waits for an expiry, and a failed lookup
//   (identity down) is never remembered;
// - an expired session (or a missed announcement) is believed for at most SESSION_CACHE_MS;
// - a session still in use after SESSION_REFRESH_AFTER_MS is looked up again in the background while
//   the remembered answer keeps serving, so a learner's requests do not wait for identity every few
//   seconds; the new answer is believed from when that lookup began, and one saying signed out (or
//   arriving after the session was revoked or forgotten) ends what was remembered;
// - the cache is per app (one per gateway process) and bounded (SESSION_CACHE_MAX entries, oldest first out).
import { SESSION_COOKIE_NAME } from '@engram/contracts/auth';
import { API_KEY_SCOPES, type ApiKeyScope } from '@engram/contracts/auth-features';
import { unary } from '@engram/kit/grpc/client';
import type { UserCaller } from '@engram/kit/internal-auth';
import { AUDIENCES, type Services } from './clients.js';

export interface SessionInfo {
  caller: Omit<UserCaller, 'kind'>;
  user: { id: string; email: string; emailVerified: boolean; name: string; role: string; banned: boolean };
  /** An API key's scopes (read, write, generate); absent for a signed-in session, which may do everything. */
  scopes?: readonly ApiKeyScope[];
}

export interface SessionCredentials {
  cookie?: string | undefined;
  authorization?: string | undefined;
}

const SESSION_LOOKUP_TIMEOUT_MS = 3_000;
/** How long a signed-in session is believed without asking identity again. */
export const SESSION_CACHE_MS = 5_000;
/**
 * How old a remembered session is when a request using it also starts a background lookup: a second
 * before it would expire, time enough for identity to answer first.
 */
export const SESSION_REFRESH_AFTER_MS = 4_000;
const SESSION_CACHE_MAX = 10_000;

interface Entry {
  /** performance.now() after which the entry is no longer believed. */
  expires: number;
  /** performance.now() after which a request using the entry also looks the session up again. */
  refreshAfter: number;
  /** Whether that background lookup is under way. */
  refreshing: boolean;
  session: Promise<SessionInfo | null>;
  /** The session token the credentials carry, if any: what a revocation names. */
  token: string | undefined;
}

export interface SessionResolver {
  resolve(headers: SessionCredentials): Promise<SessionInfo | null>;
  /**
   * The session when it is known without waiting for identity (remembered, or no credentials at all); a
   * remembered one older than SESSION_REFRESH_AFTER_MS is also looked up again in the background.
   */
  known(headers: SessionCredentials): Promise<SessionInfo | null> | undefined;
  /** Forgets what is remembered for these credentials (their holder signed out or changed them). */
  forget(headers: SessionCredentials): void;
  /** identity ended the session with this token: forget it, and remember no answer about it for a while. */
  revoke(token: string): void;
  /** Whether revocations are being heard; while they are not, nothing is remembered. */
  setRevocationsHeard(heard: boolean): void;
}

function keyOf(headers: SessionCredentials): string {
  return `${headers.cookie ?? ''}\n${headers.authorization ?? ''}`;
}

const COOKIE = new RegExp(`(?:^|;)\\s*(?:__Secure-)?${SESSION_COOKIE_NAME.replaceAll('.', '\\.')}=([^;]*)`);

/** The session token in a request's credentials: the cookie's `<token>.<signature>`, or a bearer token. */
export function sessionTokenOf(headers: SessionCredentials): string | undefined {
  const cookie = headers.cookie && COOKIE.exec(headers.cookie)?.[1];
  if (cookie) {
    try {
      return decodeURIComponent(cookie).split('.')[0] || undefined;
    } catch {
      return undefined;
    }
  }
  const bearer = headers.authorization && /^Bearer\s+(\S+)$/i.exec(headers.authorization)?.[1];
  return bearer || undefined;
}

/** One app's sessions, looked up in identity. */
export function createSessionResolver(services: Services, cacheMs = SESSION_CACHE_MS): SessionResolver {
  return createSessionCache((headers) => lookUp(services, headers), cacheMs);
}

/** The cache in front of `lookUp`: keyed by the credentials; concurrent requests with the same ones share one lookup. */
export function createSessionCache(
  lookUp: (headers: SessionCredentials) => Promise<SessionInfo | null>,
  cacheMs = SESSION_CACHE_MS,
  refreshAfterMs = Math.min(SESSION_REFRESH_AFTER_MS, cacheMs),
): SessionResolver {
  const remembered = new Map<string, Entry>();
  /** Tokens revoked within the last cacheMs, with when that ends. */
  const revokedLately = new Map<string, number>();
  let heard = false;

  /** Remembers `session`, looked up from `asked` on (a performance.now()), as the newest entry. */
  const remember = (key: string, session: Promise<SessionInfo | null>, token: string | undefined, asked: number) => {
    const entry: Entry = {
      expires: asked + cacheMs,
      refreshAfter: asked + refreshAfterMs,
      refreshing: false,
      session,
      token,
    };
    remembered.delete(key);
    remembered.set(key, entry);
    if (remembered.size > SESSION_CACHE_MAX) {
      const oldest = remembered.keys().next().value;
      if (oldest !== undefined) remembered.delete(oldest);
    }
    return entry;
  };

  /**
   * Looks a remembered session up again while the entry keeps answering. A signed-in answer replaces
   * the entry; a signed-out one ends it; a failure leaves it to expire. Nothing is remembered when the
   * entry went meanwhile (revoked, forgotten, or revocations no longer heard).
   */
  const refresh = (key: string, headers: SessionCredentials, entry: Entry, now: number) => {
    entry.refreshing = true;
    const session = lookUp(headers);
    session.then(
      (info) => {
        if (remembered.get(key) !== entry) return;
        if (info) remember(key, session, entry.token, now);
        else remembered.delete(key);
      },
      () => {
        entry.refreshing = false;
      },
    );
  };

  const revokedRecently = (token: string | undefined, now: number) => {
    if (token === undefined) return false;
    const until = revokedLately.get(token);
    if (until === undefined) return false;
    if (until > now) return true;
    revokedLately.delete(token);
    return false;
  };

  return {
    forget(headers) {
      remembered.delete(keyOf(headers));
    },
    revoke(token) {
      const now = performance.now();
      for (const [key, entry] of remembered) if (entry.token === token) remembered.delete(key);
      revokedLately.delete(token);
      revokedLately.set(token, now + cacheMs);
      // Oldest first: those past their time go, and the map stays bounded however many sign-outs arrive.
      for (const [old, until] of revokedLately) {
        if (until > now && revokedLately.size <= SESSION_CACHE_MAX) break;
        revokedLately.delete(old);
      }
    },
    setRevocationsHeard(now) {
      heard = now;
      if (!heard) remembered.clear();
    },
    known(headers) {
      if (!headers.cookie && !headers.authorization) return Promise.resolve(null);
      const key = keyOf(headers);
      const entry = remembered.get(key);
      const now = performance.now();
      if (!entry || entry.expires <= now) return undefined;
      if (now >= entry.refreshAfter && !entry.refreshing) refresh(key, headers, entry, now);
      return entry.session;
    },
    resolve(headers) {
      const known = this.known(headers);
      if (known) return known;
      const key = keyOf(headers);
      const now = performance.now();
      remembered.delete(key);
      const session = lookUp(headers);
      const token = sessionTokenOf(headers);
      if (!heard || revokedRecently(token, now)) return session;
      const entry = remember(key, session, token, now);
      // Only a signed-in answer stays; a signed-out one or a failure is asked again next time.
      const drop = () => {
        if (remembered.get(key) === entry) remembered.delete(key);
      };
      session.then((info) => info || drop(), drop);
      return session;
    },
  };
}

async function lookUp(services: Services, headers: SessionCredentials): Promise<SessionInfo | null> {
  const token = await services.signer.signSystem('gateway', AUDIENCES.identity);
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

/**
 * The owner of an API key (header x-api-key), asked of identity on every request and never remembered:
 * each request is a use that identity counts against the key's limits, and a disabled, expired, used-up
 * or rate-limited key is refused (as a tRPC error with identity's reason) on the request that meets it.
 */
export async function resolveApiKey(services: Services, key: string): Promise<SessionInfo> {
  const token = await services.signer.signSystem('gateway', AUDIENCES.identity);
  const result = await unary(
    services.identity,
    services.identity.resolveApiKey,
    { key },
    {
      token,
      timeoutMs: SESSION_LOOKUP_TIMEOUT_MS,
    },
  );
  if (!result.user) throw new Error('identity resolved an API key without its user');
  return {
    caller: {
      userId: result.user.id,
      sessionId: `apikey:${result.keyId}`,
      role: result.user.role,
      activeOrganizationId: null,
    },
    user: result.user,
    scopes: result.scopes.filter((scope): scope is ApiKeyScope =>
      (API_KEY_SCOPES as readonly string[]).includes(scope),
    ),
  };
}
