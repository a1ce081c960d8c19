// The auth layer's settings that the route guards and the auth client rely on: the views better-auth-ui
// has, what the auth client retries (spec §9), and the Gravatar fallback's address (spec §5, §9).
import { createHash } from 'node:crypto';
import { accountViewPaths, authViewPaths } from '@daveyplate/better-auth-ui';
import { describe, expect, it } from 'vitest';
import { AUTH_FETCH_RETRY, shouldRetryAuthResponse } from '../src/lib/auth-retry.ts';
import { gravatarUrl } from '../src/lib/auth-ui/gravatar.ts';
import { ACCOUNT_VIEWS, AUTH_VIEWS, SIGNED_IN_AWAY_VIEWS } from '../src/lib/auth-views.ts';

describe('the auth views the guards know', () => {
  it('are the library’s, all but email verification by code (not used: verification is by link)', () => {
    const library = Object.values(authViewPaths).filter((view) => view !== 'email-verification');
    expect([...AUTH_VIEWS].sort()).toEqual(library.sort());
  });

  it('send a signed-in user away from every view but sign-out', () => {
    expect([...SIGNED_IN_AWAY_VIEWS].sort()).toEqual(AUTH_VIEWS.filter((view) => view !== 'sign-out').sort());
  });

  it('include the account views of this release, by the library’s names', () => {
    for (const view of ACCOUNT_VIEWS) expect(Object.values(accountViewPaths)).toContain(view);
  });
});

describe('the auth client’s retries', () => {
  it('are linear, 1000 ms apart, three at most', () => {
    expect(AUTH_FETCH_RETRY).toMatchObject({ type: 'linear', delay: 1000, attempts: 3 });
  });

  it('retry only answers that never reached identity or timed out', () => {
    const answer = (status: number) => new Response(null, { status });
    for (const status of [408, 502, 503, 504]) expect(shouldRetryAuthResponse(answer(status)), `${status}`).toBe(true);
    for (const status of [400, 401, 403, 404, 422, 429, 500]) {
      expect(shouldRetryAuthResponse(answer(status)), `${status}`).toBe(false);
    }
    expect(shouldRetryAuthResponse(null)).toBe(false);
  });
});

describe('the Gravatar fallback', () => {
  const hash = createHash('sha256').update('ada@example.com').digest('hex');

  it('is the SHA-256 of the trimmed, lower-case email, and a 404 when there is none', () => {
    expect(gravatarUrl('  Ada@Example.com ', 96)).toBe(`https://gravatar.com/avatar/${hash}?s=96&d=404`);
  });

  it('asks for a size Gravatar serves, from 1 to 2048 pixels', () => {
    expect(gravatarUrl('ada@example.com', 0)).toContain('?s=1&');
    expect(gravatarUrl('ada@example.com', 5000)).toContain('?s=2048&');
  });
});
