// "/suspended": the screen of a banned user (docs/product.md#public-routes).
// Without a session the visitor goes to sign-in; a user who is not banned has nothing to see here and goes to "/".
import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { loadSession } from '../lib/session';
import { rootRoute } from './root';

export const SUSPENDED_PATH = '/suspended';

export const suspendedRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: SUSPENDED_PATH,
  beforeLoad: async () => {
    const session = await loadSession();
    if (!session) throw redirect({ to: '/auth/$pathname', params: { pathname: 'sign-in' } });
    if (!session.user.banned) throw redirect({ to: '/' });
  },
  component: lazyRouteComponent(() => import('../features/suspended/suspended-screen'), 'SuspendedScreen'),
});
