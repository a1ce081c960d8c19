// "/dashboard": the signed-in home. Its screen, and the tRPC client it needs, load with the route.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { queryClient } from '../lib/query-client';
import { protectedRoute } from './protected';

export const dashboardRoute = createRoute({
  getParentRoute: () => protectedRoute,
  path: '/dashboard',
  // Starts the first page early without waiting for it: retries of a failing fetch must not hold up the page,
  // and the list shows its own loading and error states.
  loader: async () => {
    const { cardsListOptions } = await import('../lib/cards');
    void queryClient.prefetchInfiniteQuery(cardsListOptions);
  },
  component: lazyRouteComponent(() => import('../features/dashboard/dashboard-screen'), 'DashboardScreen'),
});
