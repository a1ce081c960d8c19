// The auth layer's settings that the route guards and the auth client rely on: the views better-auth-ui
// has, what the auth client retries, and the Gravatar fallback's address (docs/product.md#constants-and-limits).
import { accountViewPaths, authViewPaths } from '@daveyplate/better-auth-ui';
import { describe, expect, it } from 'vitest';
import { AUTH_FETCH_RETRY, shouldRetryAuthResponse } from '../../src/lib/auth-retry.ts';
import { gravatarUrl, isOwnPicture } from '../../src/lib/auth-ui/gravatar.ts';
import { ACCOUNT_VIEWS, AUTH_VIEWS, SIGNED_IN_AWAY_VIEWS } from '../../src/lib/auth-views.ts';

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
  it("is the signed-in user's own, served by Engram", () => {
    expect(gravatarUrl(96)).toBe('/api/auth/gravatar?size=96');
  });

  it('asks for a size Gravatar serves, from 1 to 2048 pixels', () => {
    expect(gravatarUrl(0)).toBe('/api/auth/gravatar?size=1');
    expect(gravatarUrl(5000)).toBe('/api/auth/gravatar?size=2048');
  });
});

describe('an avatar picture', () => {
  const origin = 'https://engram.example';

  it('is shown when it is stored with the user or served by Engram', () => {
    expect(isOwnPicture('data:image/png;base64,iVBORw0KGgo=', origin)).toBe(true);
    expect(isOwnPicture('/api/auth/gravatar?size=96', origin)).toBe(true);
    expect(isOwnPicture('https://engram.example/logo.png', origin)).toBe(true);
  });

  it('is never fetched from another site (a tracking pixel, a provider photo)', () => {
    expect(isOwnPicture('https://tracker.example/pixel.gif', origin)).toBe(false);
    expect(isOwnPicture('//tracker.example/pixel.gif', origin)).toBe(false);
    expect(isOwnPicture('http://engram.example/logo.png', origin)).toBe(false);
  });
});
