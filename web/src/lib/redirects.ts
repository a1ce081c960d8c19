// Where to send a user after authentication: only a path on this site is followed, never another site.
// Only the auth screens and onboarding load this (the route guards need DEFAULT_REDIRECT alone, from
// auth-views.ts), so the checks stay off the first page's JavaScript.
import { AUTH_BASE_PATH, DEFAULT_REDIRECT } from './auth-views';

export { DEFAULT_REDIRECT };

/** The invitation link's view (a signed-in user goes from it to the dashboard). */
const ACCEPT_INVITATION_PATH = `${AUTH_BASE_PATH}/accept-invitation`;

/** The dashboard with the invitation `invitationId` shown first, ready to be accepted. */
export const dashboardWithInvitation = (invitationId: string): string =>
  `${DEFAULT_REDIRECT}?invitation=${encodeURIComponent(invitationId)}`;

/** A stand-in origin to resolve the target against: anything that resolves elsewhere is another site. */
const HERE = 'https://engram.invalid';

/** Browsers drop tabs and newlines from a URL and read a backslash as a slash. */
const hasControlOrBackslash = (value: string): boolean =>
  [...value].some((char) => char === '\\' || char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f);

/**
 * Percent-decodes until nothing changes, so double-encoded tricks show their real shape; a stray "%" left
 * over (a search for "100%") ends the decoding. Past five rounds the value is taken as hostile.
 */
function fullyDecoded(value: string): string | undefined {
  let current = value;
  for (let round = 0; round < 5; round += 1) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return current;
    }
    if (next === current) return current;
    current = next;
  }
  return undefined;
}

/**
 * `target` normalised when it is a path on this site, else undefined. Refused: anything but a string
 * starting with one "/", protocol-relative "//host" and "/\\host" (browsers read a backslash as a slash and
 * drop tabs and newlines, so any of those is refused too), schemes ("javascript:", "https:"), and the same
 * tricks percent-encoded.
 */
export function sameSitePath(target: unknown): string | undefined {
  if (typeof target !== 'string' || !target.startsWith('/')) return undefined;
  const decoded = fullyDecoded(target);
  if (decoded === undefined || hasControlOrBackslash(decoded) || decoded.startsWith('//')) return undefined;

  let url: URL;
  try {
    url = new URL(target, HERE);
  } catch {
    return undefined;
  }
  if (url.origin !== HERE) return undefined;
  const path = fullyDecoded(url.pathname) ?? url.pathname;
  if (path.startsWith('//')) return undefined;
  return `${url.pathname}${url.search}${url.hash}`;
}

const pathnameOf = (url: URL): string => fullyDecoded(url.pathname) ?? url.pathname;

const isAuthView = (pathname: string): boolean =>
  pathname === AUTH_BASE_PATH || pathname.startsWith(`${AUTH_BASE_PATH}/`);

/**
 * The redirectTo value when it is a path on this site (sameSitePath) other than the auth views themselves
 * (a loop); otherwise the dashboard. An invitation's link (the accept-invitation view, which a signed-in user
 * never sees) becomes the dashboard with that invitation first, so signing in or up on the way keeps it.
 */
export function safeRedirectTarget(redirectTo: unknown): string {
  const path = sameSitePath(redirectTo);
  if (path === undefined) return DEFAULT_REDIRECT;
  const url = new URL(path, HERE);
  const pathname = pathnameOf(url);
  if (!isAuthView(pathname)) return path;
  const invitationId = url.searchParams.get('invitationId');
  return pathname === ACCEPT_INVITATION_PATH && invitationId ? dashboardWithInvitation(invitationId) : DEFAULT_REDIRECT;
}
