// "/admin": the admin area (user management, docs/product.md#roles-and-permissions), inside the protected group and
// for users with the admin role only; anyone else goes to the dashboard. identity refuses every admin call of a
// non-admin too.
import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { DEFAULT_REDIRECT } from '../lib/auth-views';
import { protectedRoute } from './protected';

export const ADMIN_ROLE = 'admin';

export const adminRoute = createRoute({
  getParentRoute: () => protectedRoute,
  path: '/admin',
  beforeLoad: ({ context }) => {
    if (context.session.user.role !== ADMIN_ROLE) throw redirect({ to: DEFAULT_REDIRECT });
  },
  component: lazyRouteComponent(() => import('../features/admin/admin-screen'), 'AdminScreen'),
});
