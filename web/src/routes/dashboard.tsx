// "/dashboard": the signed-in home. Its screen, and the tRPC client it needs, load with the route: their
// code is asked for together with the session (staticData.code, started by the protected guard), so a cold
// dashboard takes two waves after the app's own code: the session with the page's code, then its data.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { queryClient } from '../lib/query-client';
import { protectedRoute } from './protected';
import { validateDashboardSearch } from './search-params';

const loadQueries = () => import('../features/dashboard/queries');
const DashboardScreen = lazyRouteComponent(() => import('../features/dashboard/dashboard-screen'), 'DashboardScreen');

export const dashboardRoute = createRoute({
  getParentRoute: () => protectedRoute,
  path: '/dashboard',
  // ?q= is the card list's search text; a malformed one is corrected (dropped), never an error.
  validateSearch: validateDashboardSearch,
  // The charts are drawn as soon as the screen shows, so their code comes with the rest.
  staticData: {
    code: () => Promise.all([loadQueries(), DashboardScreen.preload?.(), import('../features/dashboard/charts')]),
  },
  // Starts every load in the same tick, so the batch link sends them as one request (and identity's two
  // reads beside it), without waiting for them: a failing fetch's retries must not hold up the page, and
  // each panel shows its own states. Only on the way in: typing a search changes ?q= and so "stays" on the
  // route, and prefetching again then would cut the card list's loaded pages back to the first.
  loader: async ({ cause }) => {
    if (cause === 'stay') return;
    const q = await loadQueries();
    void queryClient.prefetchQuery(q.progressOptions);
    void queryClient.prefetchQuery(q.streakOptions);
    void queryClient.prefetchQuery(q.reviewMetricsOptions);
    void queryClient.prefetchQuery(q.timezoneOptions);
    void queryClient.prefetchQuery(q.generationUsageOptions);
    void queryClient.prefetchInfiniteQuery(q.cardsOptions(q.DEFAULT_FILTER));
    void queryClient.prefetchQuery(q.customerOptions);
    void queryClient.prefetchInfiniteQuery(q.assignmentsOptions);
    void queryClient.prefetchQuery(q.invitationsOptions);
    void queryClient.prefetchQuery(q.organizationsOptions);
  },
  component: DashboardScreen,
});
