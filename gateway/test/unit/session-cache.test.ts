// The gateway's session cache (session.ts): what it remembers, and what makes it forget at once —
// identity's revocations, and not hearing them.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createSessionCache,
  SESSION_CACHE_MS,
  SESSION_REFRESH_AFTER_MS,
  type SessionCredentials,
  type SessionInfo,
  sessionTokenOf,
} from '../../src/session.js';

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

/** A cache whose lookups wait until the test answers them, each with what identity would say. */
function cacheAnsweredByHand() {
  const pending: { answer: (info: SessionInfo | null) => void; fail: (error: Error) => void }[] = [];
  const cache = createSessionCache(
    () =>
      new Promise<SessionInfo | null>((answer, fail) => {
        pending.push({ answer, fail });
      }),
  );
  cache.setRevocationsHeard(true);
  return { cache, pending };
}

/** Lets the cache see the answers given so far. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('a session in use', () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  const ada = { cookie: cookieFor('t1') };

  /** Ada's session, remembered and then used when old enough: its background lookup is under way. */
  async function refreshing() {
    const { cache, pending } = cacheAnsweredByHand();
    const first = cache.resolve(ada);
    pending[0]?.answer(ADA);
    await first;
    vi.advanceTimersByTime(SESSION_REFRESH_AFTER_MS);
    expect(await cache.known(ada)).toEqual(ADA);
    expect(pending).toHaveLength(2);
    return { cache, lookup: pending[1], pending };
  }

  it('is looked up again in the background before it expires, so its requests never wait for identity', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const { cache, pending } = cacheAnsweredByHand();
    const first = cache.resolve(ada);
    pending[0]?.answer(ADA);
    expect(await first).toEqual(ADA);

    vi.advanceTimersByTime(SESSION_REFRESH_AFTER_MS - 1);
    expect(cache.known(ada)).toBeDefined();
    expect(pending).toHaveLength(1);

    // Old enough: the request is answered from memory while identity is asked again, once.
    vi.advanceTimersByTime(1);
    expect(await cache.known(ada)).toEqual(ADA);
    expect(cache.known(ada)).toBeDefined();
    expect(pending).toHaveLength(2);

    // identity answers half a second later; the answer counts from when it was asked.
    vi.advanceTimersByTime(500);
    pending[1]?.answer(ADA);
    await settle();
    // Past the first answer's time (at 5.5 s), the refreshed one serves without asking again.
    vi.advanceTimersByTime(SESSION_CACHE_MS - SESSION_REFRESH_AFTER_MS);
    expect(await cache.known(ada)).toEqual(ADA);
    expect(pending).toHaveLength(2);
    // It lasts until the cache time after it was asked (4 s + 5 s), not after it came (4.5 s + 5 s).
    vi.advanceTimersByTime(SESSION_REFRESH_AFTER_MS - 500);
    expect(cache.known(ada)).toBeUndefined();
  });

  it('ends when the background lookup says it is signed out', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const { cache, lookup } = await refreshing();
    lookup?.answer(null);
    await settle();
    expect(cache.known(ada)).toBeUndefined();
  });

  it('stays forgotten when it is revoked while the background lookup is under way', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const { cache, lookup } = await refreshing();
    cache.revoke('t1');
    // identity answered before it finished the revocation: not believed.
    lookup?.answer(ADA);
    await settle();
    expect(cache.known(ada)).toBeUndefined();
  });

  it('keeps its answer until it expires when the background lookup fails, and tries again meanwhile', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const { cache, lookup, pending } = await refreshing();
    lookup?.fail(new Error('identity is unavailable'));
    await settle();
    expect(await cache.known(ada)).toEqual(ADA);
    expect(pending).toHaveLength(3);
    vi.advanceTimersByTime(SESSION_CACHE_MS - SESSION_REFRESH_AFTER_MS);
    expect(cache.known(ada)).toBeUndefined();
  });
});
