// The route tree (code-based) and the router instance, registered for type-safe links and navigation.
import { createRouter } from '@tanstack/react-router';
import { ErrorScreen, LoadingScreen, NotFoundScreen } from './components/status-screens';
import { accountRoute } from './routes/account';
import { adminRoute } from './routes/admin';
import { authRoute } from './routes/auth';
import { billingCancelRoute, billingPlansRoute, billingSuccessRoute } from './routes/billing';
import { browseRoute } from './routes/browse';
import { dashboardRoute } from './routes/dashboard';
import { generateRoute } from './routes/generate';
import { importRoute } from './routes/import';
import { landingRoute } from './routes/landing';
import { onboardingRoute } from './routes/onboarding';
import { organizationRoute, organizationViewRoute } from './routes/organization';
import { organizationLearningRoute } from './routes/organization-learning';
import { practiceDoneRoute, practiceNewRoute, practiceSessionRoute } from './routes/practice';
import { protectedRoute } from './routes/protected';
import { helpRoute, privacyRoute, termsRoute } from './routes/public-pages';
import { rootRoute } from './routes/root';
import { settingsRoute } from './routes/settings';
import { suspendedRoute } from './routes/suspended';

const routeTree = rootRoute.addChildren([
  landingRoute,
  helpRoute,
  termsRoute,
  privacyRoute,
  authRoute,
  suspendedRoute,
  protectedRoute.addChildren([
    onboardingRoute,
    dashboardRoute,
    generateRoute,
    importRoute,
    browseRoute,
    practiceNewRoute,
    practiceSessionRoute,
    practiceDoneRoute,
    settingsRoute,
    accountRoute,
    billingPlansRoute,
    billingSuccessRoute,
    billingCancelRoute,
    adminRoute,
    organizationRoute,
    organizationViewRoute,
    organizationLearningRoute,
  ]),
]);

export const router = createRouter({
  routeTree,
  // Links preload their route (its code and data) on hover or focus; a link with preload="viewport" does so
  // when it comes within 100 px of the viewport (the router's fixed margin).
  defaultPreload: 'intent',
  // TanStack Query owns data freshness, so the router never serves its own cached loader results.
  defaultPreloadStaleTime: 0,
  defaultPendingComponent: () => <LoadingScreen />,
  // Shown in place of the route that failed or matched nothing, inside the layouts above it.
  defaultNotFoundComponent: NotFoundScreen,
  defaultErrorComponent: ({ error }) => <ErrorScreen error={error} />,
  defaultPendingMs: 300,
  scrollRestoration: true,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
  interface StaticDataRouteOption {
    /** The route's code (screen and loader modules), started by the protected guard beside the session. */
    code?: () => Promise<unknown>;
  }
}
