// The gateway's session cache (session.ts): what it remembers, and what makes it forget at once —
// identity's revocations, and not hearing them.
import { describe, expect, it } from 'vitest';
import { createSessionCache, type SessionCredentials, type SessionInfo, sessionTokenOf } from '../src/session.js';

const ADA: SessionInfo = {
  caller: { userId: 'ada', sessionId: 's1', role: 'user', activeOrganizationId: null },
  user: { id: 'ada', email: 'ada@example.com', emailVerified: true, name: 'Ada', role: 'user', banned: false },
};

const cookieFor = (token: string) =>
  `theme=dark; better-auth.session_token=${encodeURIComponent(`${token}.c2lnbmF0dXJl+/=`)}`;

/** A cache whose lookups are counted and answer from `signedIn` (the tokens identity still accepts). */
function cacheOver(signedIn: Set<string>, cacheMs = 60_000) {
  const lookups: SessionCredentials[] = [];
  const cache = createSessionCache(async (headers) => {
    lookups.push(headers);
    const token = sessionTokenOf(headers);
    return token && signedIn.has(token) ? ADA : null;
  }, cacheMs);
  return { cache, lookups };
}

describe('the session token in a request', () => {
  it.each([
    [{ cookie: cookieFor('abc123') }, 'abc123'],
    [{ cookie: `__Secure-better-auth.session_token=${encodeURIComponent('tok.sig')}; a=b` }, 'tok'],
    [{ authorization: 'Bearer tok42' }, 'tok42'],
    [{ cookie: 'better-auth.session_token_other=x' }, undefined],
    [{ cookie: 'better-auth.session_token=%E0%A4%A' }, undefined],
    [{}, undefined],
  ])('of %j is %s', (headers, token) => {
    expect(sessionTokenOf(headers)).toBe(token);
  });
});

describe('the session cache', () => {
  it('remembers a signed-in session while revocations are heard, and asks again for a signed-out one', async () => {
    const { cache, lookups } = cacheOver(new Set(['t1']));
    cache.setRevocationsHeard(true);
    expect(await cache.resolve({ cookie: cookieFor('t1') })).toEqual(ADA);
    expect(await cache.resolve({ cookie: cookieFor('t1') })).toEqual(ADA);
    expect(await cache.resolve({ cookie: cookieFor('gone') })).toBeNull();
    expect(await cache.resolve({ cookie: cookieFor('gone') })).toBeNull();
    expect(lookups).toHaveLength(3);
  });

  it('forgets a revoked session at once, and believes no answer about it for a while', async () => {
    const signedIn = new Set(['t1', 't2']);
    const { cache, lookups } = cacheOver(signedIn);
    cache.setRevocationsHeard(true);
    await cache.resolve({ cookie: cookieFor('t1') });
    await cache.resolve({ cookie: cookieFor('t2') });

    cache.revoke('t1');
    expect(cache.known({ cookie: cookieFor('t1') })).toBeUndefined();
    expect(cache.known({ cookie: cookieFor('t2') })).toBeDefined();
    // identity may still have been finishing the revocation: its answer is used once, not remembered.
    expect(await cache.resolve({ cookie: cookieFor('t1') })).toEqual(ADA);
    signedIn.delete('t1');
    expect(await cache.resolve({ cookie: cookieFor('t1') })).toBeNull();
    expect(lookups).toHaveLength(4);
  });

  it('remembers nothing while revocations are not heard, and drops what it had when they stop', async () => {
    const { cache, lookups } = cacheOver(new Set(['t1']));
    await cache.resolve({ cookie: cookieFor('t1') });
    await cache.resolve({ cookie: cookieFor('t1') });
    expect(lookups).toHaveLength(2);

    cache.setRevocationsHeard(true);
    await cache.resolve({ cookie: cookieFor('t1') });
    expect(cache.known({ cookie: cookieFor('t1') })).toBeDefined();
    cache.setRevocationsHeard(false);
    expect(cache.known({ cookie: cookieFor('t1') })).toBeUndefined();
  });

  it('believes a remembered session for the cache time only', async () => {
    const { cache, lookups } = cacheOver(new Set(['t1']), 0);
    cache.setRevocationsHeard(true);
    await cache.resolve({ cookie: cookieFor('t1') });
    await cache.resolve({ cookie: cookieFor('t1') });
    expect(lookups).toHaveLength(2);
  });
});
