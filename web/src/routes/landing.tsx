// "/": the product pitch for visitors; a signed-in user goes straight to the dashboard.
import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { DEFAULT_REDIRECT } from '../lib/auth-views';
import { loadSession } from '../lib/session';
import { rootRoute } from './root';

export const landingRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  beforeLoad: async () => {
    if (await loadSession()) throw redirect({ to: DEFAULT_REDIRECT });
  },
  component: lazyRouteComponent(() => import('../features/landing/landing-screen'), 'LandingScreen'),
});
