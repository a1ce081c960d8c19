// "/auth/$pathname": the sign-in, sign-up and sign-out views, and the redirects the spec sets around them (§2).
import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { DEFAULT_REDIRECT } from '../lib/redirects';
import { loadSession } from '../lib/session';
import { rootRoute } from './root';

/** Views this app renders. */
const VIEWS = ['sign-in', 'sign-up', 'sign-out'] as const;

/** Views of the auth layer whose features are off in this app: they fall back to sign-in. */
const DISABLED_VIEWS = [
  'callback',
  'email-otp',
  'forgot-password',
  'magic-link',
  'recover-account',
  'reset-password',
  'two-factor',
  'accept-invitation',
];

/** Every view except sign-out sends a signed-in user on to the dashboard. */
const SIGNED_IN_REDIRECTS = new Set<string>(['sign-in', 'sign-up', ...DISABLED_VIEWS]);

/** The whole query string is kept so it survives moves between views; redirectTo is the one value read. */
export type AuthSearch = { redirectTo?: string; [key: string]: unknown };

const isView = (pathname: string): boolean => (VIEWS as readonly string[]).includes(pathname);

export const authRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/auth/$pathname',
  validateSearch: (raw: Record<string, unknown>): AuthSearch => ({
    ...raw,
    redirectTo: typeof raw.redirectTo === 'string' ? raw.redirectTo : undefined,
  }),
  beforeLoad: async ({ params, search }) => {
    const { pathname } = params;
    const known = isView(pathname) || DISABLED_VIEWS.includes(pathname);
    if (!known) console.error(`Unknown auth path "/auth/${pathname}", redirecting to sign-in`);
    if (SIGNED_IN_REDIRECTS.has(pathname) && (await loadSession())) throw redirect({ to: DEFAULT_REDIRECT });
    if (!isView(pathname)) {
      throw redirect({ to: '/auth/$pathname', params: { pathname: 'sign-in' }, search, replace: true });
    }
  },
  // The forms load with the route (on intent, or when a landing link scrolls into view), not with the app.
  component: lazyRouteComponent(() => import('../features/auth/auth-screen'), 'AuthScreen'),
});
