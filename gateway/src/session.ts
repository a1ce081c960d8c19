// Resolves the session of one request (cookie or Authorization header) by asking identity; the result
// decides what the request may do and which internal token services receive.
//
// A signed-in session is remembered for SESSION_CACHE_MS. Asking identity on every request cost more
// than the review it guarded (an internal token signed and verified, a gRPC round trip, better-auth's
// cookie check and a Redis read): the review benchmark spent most of its gateway time there. The bound
// on what the cache may get wrong is what was accepted for it:
// - a session revoked elsewhere (signed out on another device, the user banned or deleted by an admin,
//   expired) keeps working on this replica for at most SESSION_CACHE_MS, never longer;
// - a sign-out (any state-changing /api/auth request) through this replica forgets the credentials it
//   carried at once (`forget`), so the browser that signed out is signed out here immediately;
// - only signed-in answers are remembered, so signing in never waits for an expiry, and a failed lookup
//   (identity down) is never remembered;
// - the cache is per app (one per gateway process) and bounded (SESSION_CACHE_MAX entries, oldest first out).
import { unary } from '@engram/kit/grpc/client';
import type { UserCaller } from '@engram/kit/internal-auth';
import type { Services } from './clients.js';

export interface SessionInfo {
  caller: Omit<UserCaller, 'kind'>;
  user: { id: string; email: string; emailVerified: boolean; name: string; role: string; banned: boolean };
}

export interface SessionCredentials {
  cookie?: string | undefined;
  authorization?: string | undefined;
}

const SESSION_LOOKUP_TIMEOUT_MS = 3_000;
/** How long a signed-in session is believed without asking identity again. */
export const SESSION_CACHE_MS = 5_000;
const SESSION_CACHE_MAX = 10_000;

interface Entry {
  /** performance.now() after which the entry is no longer believed. */
  expires: number;
  session: Promise<SessionInfo | null>;
}

export interface SessionResolver {
  resolve(headers: SessionCredentials): Promise<SessionInfo | null>;
  /** The session when it is known without asking identity (remembered, or no credentials at all). */
  known(headers: SessionCredentials): Promise<SessionInfo | null> | undefined;
  /** Forgets what is remembered for these credentials (their holder signed out or changed them). */
  forget(headers: SessionCredentials): void;
}

function keyOf(headers: SessionCredentials): string {
  return `${headers.cookie ?? ''}\n${headers.authorization ?? ''}`;
}

/** One app's sessions: keyed by the credentials; concurrent requests with the same ones share one lookup. */
export function createSessionResolver(services: Services, cacheMs = SESSION_CACHE_MS): SessionResolver {
  const remembered = new Map<string, Entry>();
  return {
    forget(headers) {
      remembered.delete(keyOf(headers));
    },
    known(headers) {
      if (!headers.cookie && !headers.authorization) return Promise.resolve(null);
      const entry = remembered.get(keyOf(headers));
      return entry && entry.expires > performance.now() ? entry.session : undefined;
    },
    resolve(headers) {
      const known = this.known(headers);
      if (known) return known;
      const key = keyOf(headers);
      const now = performance.now();
      remembered.delete(key);
      const session = lookUp(services, headers);
      const entry: Entry = { expires: now + cacheMs, session };
      remembered.set(key, entry);
      if (remembered.size > SESSION_CACHE_MAX) {
        const oldest = remembered.keys().next().value;
        if (oldest !== undefined) remembered.delete(oldest);
      }
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
