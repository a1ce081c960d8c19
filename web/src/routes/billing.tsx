// The billing routes (docs/product.md#routes): the plans, and the pages Stripe Checkout returns to. /billing/success
// requires the checkout's session_id; without one it explains itself instead of crashing.
import { billingPlansSearch, billingSuccessSearch } from '@engram/contracts/search';
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { queryClient } from '../lib/query-client';
import { protectedRoute } from './protected';

export const billingPlansRoute = createRoute({
  getParentRoute: () => protectedRoute,
  path: '/billing/plans',
  validateSearch: (search: Record<string, unknown>) => billingPlansSearch.parse(search),
  loader: async () => {
    const q = await import('../entities/billing/queries');
    void queryClient.prefetchQuery(q.plansOptions);
    void queryClient.prefetchQuery(q.customerOptions);
  },
  component: lazyRouteComponent(() => import('../features/billing/plans-screen'), 'PlansScreen'),
});

export const billingSuccessRoute = createRoute({
  getParentRoute: () => protectedRoute,
  path: '/billing/success',
  validateSearch: (search: Record<string, unknown>) => billingSuccessSearch.parse(search),
  component: lazyRouteComponent(() => import('../features/billing/success-screen'), 'CheckoutSuccessScreen'),
  errorComponent: lazyRouteComponent(() => import('../features/billing/success-screen'), 'CheckoutSuccessInvalid'),
});

export const billingCancelRoute = createRoute({
  getParentRoute: () => protectedRoute,
  path: '/billing/cancel',
  component: lazyRouteComponent(() => import('../features/billing/cancel-screen'), 'CheckoutCancelScreen'),
});
