// "/browse": the learner's cards searched with Anki's syntax, in a sortable table (a list on a phone), changed in
// bulk with undo; saved searches; duplicates (?view=duplicates). The search and its sort live in the address
// (?q=, ?sort=, ?asc=), so a reload or a shared link keeps them.
import { browseSearch } from '@engram/contracts/search';
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { protectedRoute } from './protected';

export const browseRoute = createRoute({
  getParentRoute: () => protectedRoute,
  path: '/browse',
  validateSearch: (search: Record<string, unknown>) => browseSearch.parse(search),
  component: lazyRouteComponent(() => import('../features/browse/browse-screen'), 'BrowseScreen'),
});
