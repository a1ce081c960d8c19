// "/onboarding": inside the protected group, which sends every user without onboardedAt here first.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { protectedRoute } from './protected';

export const onboardingRoute = createRoute({
  getParentRoute: () => protectedRoute,
  path: '/onboarding',
  component: lazyRouteComponent(() => import('../features/onboarding/onboarding-screen'), 'OnboardingScreen'),
});
