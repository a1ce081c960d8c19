// "/help", "/terms", "/privacy": public support pages, indexable (docs/product.md#public-routes), open to visitors
// and signed-in users alike. Their <head> is filled in by the gateway (page-heads.ts); each screen loads with its
// route.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './root';

export const helpRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/help',
  component: lazyRouteComponent(() => import('../features/public/help-page'), 'HelpPage'),
});

export const termsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/terms',
  component: lazyRouteComponent(() => import('../features/public/terms-page'), 'TermsPage'),
});

export const privacyRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/privacy',
  component: lazyRouteComponent(() => import('../features/public/privacy-page'), 'PrivacyPage'),
});
