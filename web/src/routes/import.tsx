// "/import": bringing cards from Anki or a CSV file, linked from the header and from an empty card list. Its
// screen loads with the route, so no other page carries it.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { protectedRoute } from './protected';

export const importRoute = createRoute({
  getParentRoute: () => protectedRoute,
  path: '/import',
  component: lazyRouteComponent(() => import('../features/import/import-screen'), 'ImportScreen'),
});
