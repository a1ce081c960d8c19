// The protected route group: no session sends the visitor to sign-in with redirectTo holding where they were
// (path and search); a banned user goes to /suspended; a user not yet onboarded goes to /onboarding (and on
// to where they were once done), and an onboarded one never sees it again (docs/product.md#the-protected-group).
import { createRoute, Outlet, redirect, useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';
import { AppHeader } from '../components/app-header';
import { LiveEvents } from '../components/live-events';
import { SiteFooter } from '../components/site-footer';
import { LoadingScreen } from '../components/status-screens';
import { verificationDone } from '../features/auth/pending-verification';
import { ONBOARDING_PATH, onboardingRedirect, onboardingSearch } from '../features/onboarding/redirect';
import { authClient } from '../lib/auth-client';
import { loadSession } from '../lib/session';
import { rootRoute } from './root';
import { SUSPENDED_PATH } from './suspended';

function ProtectedLayout() {
  const guarded = protectedRoute.useRouteContext().session;
  const { data, isPending, isRefetching } = authClient.useSession();
  const router = useRouter();
  // Read as it renders: coming back online refetches the session, which renders again.
  const online = navigator.onLine;
  const settled = !isPending && !isRefetching;
  // Offline the session cannot be fetched: the learner stays with the one the guard saw (lib/session.ts).
  const signedOut = settled && !data && online;
  const banned = settled && Boolean(data?.user.banned);
  // While the session store (re)loads, keep the page mounted with the session the guard saw: unmounting
  // it would cancel the page's queries mid-flight.
  const session = settled && online ? data : (data ?? guarded);

  // The session can also end while the page is open (expiry, a 401, sign-out in another tab), or its user be
  // banned (a refused call reads it again): running the guards again sends the user to sign-in with
  // redirectTo set, or to /suspended, exactly as on a fresh visit.
  useEffect(() => {
    if (signedOut || banned) void router.invalidate();
  }, [signedOut, banned, router]);

  if (!session) return <LoadingScreen />;
  return (
    <div className="flex min-h-dvh flex-col">
      <AppHeader user={session.user} impersonated={Boolean(session.session.impersonatedBy)} />
      <LiveEvents />
      <div className="flex-1">
        <Outlet />
      </div>
      {/* The header carries the language picker. */}
      <SiteFooter languagePicker={false} />
    </div>
  );
}

export const protectedRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'protected',
  beforeLoad: async ({ location, matches }) => {
    // The page's code is fetched while the session is asked for, not after the guards pass; a failure
    // shows when the route itself loads it.
    for (const match of matches) void match.staticData.code?.().catch(() => undefined);
    const session = await loadSession();
    if (!session) {
      throw redirect({ to: '/auth/$pathname', params: { pathname: 'sign-in' }, search: { redirectTo: location.href } });
    }
    if (session.user.banned) throw redirect({ to: SUSPENDED_PATH });
    verificationDone(session.user.email);
    const target = onboardingRedirect(location.pathname, session.user.onboardedAt);
    if (target === ONBOARDING_PATH) throw redirect({ to: target, search: onboardingSearch(location.href) });
    if (target) throw redirect({ to: target });
    return { session };
  },
  component: ProtectedLayout,
});
