// "/generate": card generation from the learner's notes. Its screen loads with the route (the JavaScript
// budget: generation is a heavy screen); the usage figure starts loading at once.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { queryClient } from '../lib/query-client';
import { protectedRoute } from './protected';

export const generateRoute = createRoute({
  getParentRoute: () => protectedRoute,
  path: '/generate',
  loader: async () => {
    const { generationUsageOptions } = await import('../entities/generation/usage');
    void queryClient.prefetchQuery(generationUsageOptions);
  },
  component: lazyRouteComponent(() => import('../features/generate/generate-screen'), 'GenerateScreen'),
});
