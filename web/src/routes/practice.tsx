// The practice routes (docs/product.md#routes): choose tags, the session itself, and the results. Each screen loads
// with its route; the loaders start their data without waiting for it.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { queryClient } from '../lib/query-client';
import { protectedRoute } from './protected';
import { validateDoneSearch, validateSessionSearch } from './search-params';

export const practiceNewRoute = createRoute({
  getParentRoute: () => protectedRoute,
  path: '/practice/new',
  loader: async () => {
    const { dueOptions, tagsOptions } = await import('../features/practice/queries');
    void queryClient.prefetchInfiniteQuery(tagsOptions);
    void queryClient.prefetchQuery(dueOptions());
  },
  component: lazyRouteComponent(() => import('../features/practice/new-screen'), 'PracticeNewScreen'),
});

export const practiceSessionRoute = createRoute({
  getParentRoute: () => protectedRoute,
  path: '/practice/session',
  validateSearch: validateSessionSearch,
  loaderDeps: ({ search }) => ({ tags: search.tags }),
  loader: async ({ deps }) => {
    const { dueOptions } = await import('../features/practice/queries');
    // A session starts from the server's due list as it is now, never from a cached one.
    void queryClient.fetchQuery({ ...dueOptions(deps.tags), staleTime: 0 }).catch(() => {});
  },
  component: lazyRouteComponent(() => import('../features/practice/session-screen'), 'PracticeSessionScreen'),
});

export const practiceDoneRoute = createRoute({
  getParentRoute: () => protectedRoute,
  path: '/practice/done',
  validateSearch: validateDoneSearch,
  component: lazyRouteComponent(() => import('../features/practice/done-screen'), 'PracticeDoneScreen'),
  // Missing or malformed counts (a hand-edited link) get a plain explanation rather than the crash screen.
  errorComponent: lazyRouteComponent(() => import('../features/practice/done-screen'), 'PracticeDoneInvalid'),
});
