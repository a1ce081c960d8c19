// "/auth/$pathname": the auth views of docs/product.md#auth-views, and the redirects
// around them. A signed-in user is sent to
// the dashboard from every view but sign-out (and two-factor while they switch it on, and sign-in to add
// another account to the device); an unknown view is
// logged and replaced by sign-in, keeping the query string. The views themselves (and the redirects for features that are off) are better-auth-ui's,
// but for signing in with a phone number (phone-number), which is Engram's.
import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { DEFAULT_REDIRECT, isAuthView, PHONE_SIGN_IN_VIEW, SIGNED_IN_AWAY_VIEWS } from '../lib/auth-views';
import { loadSession } from '../lib/session';
import { rootRoute } from './root';

/** The whole query string is kept so it survives moves between views; redirectTo is the one value read. */
export type AuthSearch = { redirectTo?: string; [key: string]: unknown };

/**
 * Turning two-factor on ends on the two-factor view: the first code entered there switches it on. A signed-in
 * user without it on is therefore let in to that view; everyone else signed in goes to the dashboard.
 */
const finishingTwoFactorSetUp = (view: string, user: { twoFactorEnabled?: boolean | null }): boolean =>
  view === 'two-factor' && !user.twoFactorEnabled;

export const authRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/auth/$pathname',
  validateSearch: (raw: Record<string, unknown>): AuthSearch => ({
    ...raw,
    redirectTo: typeof raw.redirectTo === 'string' ? raw.redirectTo : undefined,
  }),
  beforeLoad: async ({ params: { pathname }, search }) => {
    const phone = pathname === PHONE_SIGN_IN_VIEW;
    if (!isAuthView(pathname) && !phone) {
      console.error(`Unknown auth path "/auth/${pathname}", redirecting to sign-in`);
      throw redirect({ to: '/auth/$pathname', params: { pathname: 'sign-in' }, search, replace: true });
    }
    if (!phone && !(SIGNED_IN_AWAY_VIEWS as readonly string[]).includes(pathname)) return;
    // Signing in to one more account on this device (the account switcher's "Add account").
    if (pathname === 'sign-in' && search.addAccount) return;
    const session = await loadSession();
    if (session && !finishingTwoFactorSetUp(pathname, session.user)) {
      // From an invitation's link, the dashboard shows that invitation first.
      const invitation = pathname === 'accept-invitation' ? search.invitationId : undefined;
      throw redirect({ to: DEFAULT_REDIRECT, search: typeof invitation === 'string' ? { invitation } : {} });
    }
  },
  // The views load with the route (on intent, or when a landing link scrolls into view), not with the app.
  component: lazyRouteComponent(() => import('../features/auth/auth-screen'), 'AuthScreen'),
});
