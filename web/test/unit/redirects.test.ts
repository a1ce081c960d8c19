// After signing in, the user goes back to where they were, but only ever to a page of this site.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_REDIRECT,
  dashboardWithInvitation,
  safeRedirectTarget,
  sameSitePath,
} from '../../src/lib/redirects.ts';

/** Ways to write another site's address that browsers would follow. */
const ATTACKS = [
  'https://evil.example/phish',
  'http:evil.example',
  '//evil.example',
  '///evil.example',
  '/\\evil.example',
  '\\\\evil.example',
  '/\t/evil.example',
  '/\n/evil.example',
  ' //evil.example',
  'evil.example',
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  '/%2F%2Fevil.example',
  '/%2f/evil.example',
  '/%5Cevil.example',
  '/%252F%252Fevil.example',
  '/%09/evil.example',
];

describe('the redirect after sign-in', () => {
  it('follows a path on this site, with its search and hash', () => {
    expect(safeRedirectTarget('/dashboard')).toBe('/dashboard');
    expect(safeRedirectTarget('/practice/session?tags=a&tags=b#top')).toBe('/practice/session?tags=a&tags=b#top');
    expect(safeRedirectTarget('/practice/new?q=100%25')).toBe('/practice/new?q=100%25');
  });

  it('goes to the dashboard without a string target', () => {
    for (const value of [undefined, null, 42, {}, ['/dashboard'], '']) {
      expect(safeRedirectTarget(value)).toBe(DEFAULT_REDIRECT);
    }
  });

  it('refuses other sites, however the address is written', () => {
    for (const attack of ATTACKS) expect(safeRedirectTarget(attack), attack).toBe(DEFAULT_REDIRECT);
  });

  it('never sends the user back into the auth views', () => {
    expect(safeRedirectTarget('/auth/sign-in')).toBe(DEFAULT_REDIRECT);
    expect(safeRedirectTarget('/auth/sign-out?redirectTo=/dashboard')).toBe(DEFAULT_REDIRECT);
    expect(safeRedirectTarget('/%61uth/sign-out')).toBe(DEFAULT_REDIRECT);
    expect(safeRedirectTarget('/dashboard/../auth/sign-out')).toBe(DEFAULT_REDIRECT);
  });
});

describe('an invitation link on the way through sign-in or sign-up', () => {
  it('becomes the dashboard with that invitation first', () => {
    expect(safeRedirectTarget('/auth/accept-invitation?invitationId=inv-1')).toBe('/dashboard?invitation=inv-1');
    expect(safeRedirectTarget('/auth/accept-invitation?invitationId=a%26b')).toBe(dashboardWithInvitation('a&b'));
    expect(dashboardWithInvitation('a&b')).toBe('/dashboard?invitation=a%26b');
  });

  it('is the plain dashboard without an invitation id, and never leaves the site', () => {
    expect(safeRedirectTarget('/auth/accept-invitation')).toBe(DEFAULT_REDIRECT);
    expect(safeRedirectTarget('/auth/accept-invitation?invitationId=')).toBe(DEFAULT_REDIRECT);
    expect(safeRedirectTarget('//evil.example/auth/accept-invitation?invitationId=x')).toBe(DEFAULT_REDIRECT);
    expect(safeRedirectTarget('/auth/sign-in?invitationId=x')).toBe(DEFAULT_REDIRECT);
  });
});

describe('a navigation the auth screens ask for', () => {
  it('stays on this site and may go to another auth view, with the query string', () => {
    expect(sameSitePath('/auth/two-factor?redirectTo=%2Fpractice%2Fnew')).toBe(
      '/auth/two-factor?redirectTo=%2Fpractice%2Fnew',
    );
    expect(sameSitePath('/auth/sign-in')).toBe('/auth/sign-in');
    expect(sameSitePath('/account/settings')).toBe('/account/settings');
  });

  it('is refused for another site, however the address is written', () => {
    for (const attack of ATTACKS) expect(sameSitePath(attack), attack).toBeUndefined();
  });
});
