// Where the auth and account screens live, the names of their views, and the page after signing in
// (docs/product.md#auth-views).
// The route guards run in the app's entry, so the names are spelled here rather than imported from
// better-auth-ui (which would pull the library into the first page); a test checks they are the library's own.
export const AUTH_BASE_PATH = '/auth';
/** Where a user goes after authentication when nothing else is asked for (redirects.ts checks the rest). */
export const DEFAULT_REDIRECT = '/dashboard';
export const ACCOUNT_BASE_PATH = '/account';

/** Every auth view, by path segment. */
export const AUTH_VIEWS = [
  'sign-in',
  'sign-up',
  'sign-out',
  'callback',
  'magic-link',
  'email-otp',
  'forgot-password',
  'reset-password',
  'two-factor',
  'recover-account',
  'accept-invitation',
] as const;
export type AuthView = (typeof AUTH_VIEWS)[number];

/** A signed-in user is sent from these to the dashboard; sign-out is the one view left to them. */
export const SIGNED_IN_AWAY_VIEWS: readonly AuthView[] = AUTH_VIEWS.filter((view) => view !== 'sign-out');

/**
 * Engram's own auth view beside the library's: signing in with a phone number (features/auth/phone-sign-in.tsx),
 * where identity can text codes. A signed-in user is sent from it to the dashboard too.
 */
export const PHONE_SIGN_IN_VIEW = 'phone-number';

/** The views that offer a way to sign in with a phone number instead. */
export const OFFERS_PHONE_SIGN_IN: readonly AuthView[] = ['sign-in', 'magic-link', 'email-otp'];

/** The account views. */
export const ACCOUNT_VIEWS = ['settings', 'security', 'api-keys', 'organizations'] as const;
export type AccountView = (typeof ACCOUNT_VIEWS)[number];

/** Where an organization's views live; in slug mode, `/organization/<slug>/<view>`. */
export const ORGANIZATION_BASE_PATH = '/organization';
/** The organization views (settings, members, api-keys; teams are on). */
export const ORGANIZATION_VIEWS = ['settings', 'members', 'teams', 'api-keys'] as const;
export type OrganizationView = (typeof ORGANIZATION_VIEWS)[number];
export const isOrganizationView = (value: string): value is OrganizationView =>
  (ORGANIZATION_VIEWS as readonly string[]).includes(value);

export const isAuthView = (value: string): value is AuthView => (AUTH_VIEWS as readonly string[]).includes(value);
export const isAccountView = (value: string): value is AccountView =>
  (ACCOUNT_VIEWS as readonly string[]).includes(value);
