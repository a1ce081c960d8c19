// "/onboarding": inside the protected group, which sends every user without onboardedAt here first, with
// where they were headed in redirectTo.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { validateOnboardingSearch } from '../features/onboarding/redirect';
import { protectedRoute } from './protected';

export const onboardingRoute = createRoute({
  getParentRoute: () => protectedRoute,
  path: '/onboarding',
  validateSearch: validateOnboardingSearch,
  component: lazyRouteComponent(() => import('../features/onboarding/onboarding-screen'), 'OnboardingScreen'),
});
