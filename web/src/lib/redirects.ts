// Where to send a user after authentication: only same-origin paths are followed, never another site.
export const DEFAULT_REDIRECT = '/dashboard';

export function safeRedirectTarget(redirectTo: unknown): string {
  if (typeof redirectTo !== 'string') return DEFAULT_REDIRECT;
  // "//host" and "/\host" are protocol-relative URLs that browsers resolve to another origin.
  if (!redirectTo.startsWith('/') || redirectTo.startsWith('//') || redirectTo.startsWith('/\\')) {
    return DEFAULT_REDIRECT;
  }
  if (redirectTo.startsWith('/auth/')) return DEFAULT_REDIRECT;
  return redirectTo;
}
