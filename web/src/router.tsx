// The route tree (code-based) and the router instance, registered for type-safe links and navigation.
import { createRouter } from '@tanstack/react-router';
import { LoadingScreen } from './components/status-screens';
import { authRoute } from './routes/auth';
import { dashboardRoute } from './routes/dashboard';
import { landingRoute } from './routes/landing';
import { onboardingRoute } from './routes/onboarding';
import { practiceDoneRoute, practiceNewRoute, practiceSessionRoute } from './routes/practice';
import { protectedRoute } from './routes/protected';
import { rootRoute } from './routes/root';
import { settingsRoute } from './routes/settings';

const routeTree = rootRoute.addChildren([
  landingRoute,
  authRoute,
  protectedRoute.addChildren([
    onboardingRoute,
    dashboardRoute,
    practiceNewRoute,
    practiceSessionRoute,
    practiceDoneRoute,
    settingsRoute,
  ]),
]);

export const router = createRouter({
  routeTree,
  defaultPreload: 'intent',
  // TanStack Query owns data freshness, so the router never serves its own cached loader results.
  defaultPreloadStaleTime: 0,
  defaultPendingComponent: () => <LoadingScreen />,
  defaultPendingMs: 300,
  scrollRestoration: true,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
