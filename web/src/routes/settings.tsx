// "/settings": the learner's scheduling settings, linked from the header, in sections (?section=day, scheduling,
// presets, note-types, device; the day when none or another is named).
import { settingsSearch } from '@engram/contracts/search';
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { queryClient } from '../lib/query-client';
import { protectedRoute } from './protected';

export const settingsRoute = createRoute({
  getParentRoute: () => protectedRoute,
  path: '/settings',
  validateSearch: (search: Record<string, unknown>) => settingsSearch.parse(search),
  loader: async () => {
    const { trpc } = await import('../lib/trpc');
    void queryClient.prefetchQuery(trpc.settings.get.queryOptions());
  },
  component: lazyRouteComponent(() => import('../features/settings/settings-screen'), 'SettingsScreen'),
});
