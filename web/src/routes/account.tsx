// "/account/$pathname": the signed-in user's account views (settings, security), inside the protected group.
// Views of features that come later (API keys, organizations) and unknown ones open the settings.
import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { isAccountView } from '../lib/auth-views';
import { protectedRoute } from './protected';

export const accountRoute = createRoute({
  getParentRoute: () => protectedRoute,
  path: '/account/$pathname',
  beforeLoad: ({ params: { pathname } }) => {
    if (!isAccountView(pathname)) {
      throw redirect({ to: '/account/$pathname', params: { pathname: 'settings' }, replace: true });
    }
  },
  component: lazyRouteComponent(() => import('../features/account/account-screen'), 'AccountScreen'),
});
