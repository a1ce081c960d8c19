// "/organization/$slug" and "/organization/$slug/$pathname": an organization's views in slug mode (settings,
// members, api-keys, and teams), inside the protected group. A view this release does not have opens the settings;
// a slug of no organization of the user's goes to the personal path (docs/product.md#routes).
import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { authClient } from '../lib/auth-client';
import { DEFAULT_REDIRECT, isOrganizationView, ORGANIZATION_BASE_PATH } from '../lib/auth-views';
import { protectedRoute } from './protected';

export interface OrganizationSummary {
  id: string;
  name: string;
  slug: string;
}

/**
 * The user's organization with this slug. Asked afresh each time: the organization may have been created
 * (or left) a moment ago. None of theirs sends them to the personal path.
 */
export async function requireOrganization(slug: string): Promise<OrganizationSummary | undefined> {
  const { data } = await authClient.$fetch<OrganizationSummary[]>('/organization/list', { method: 'GET' });
  const organization = data?.find((candidate) => candidate.slug === slug);
  if (data && !organization) throw redirect({ to: DEFAULT_REDIRECT, replace: true });
  return organization;
}

const screen = lazyRouteComponent(() => import('../features/organization/organization-screen'), 'OrganizationScreen');

export const organizationRoute = createRoute({
  getParentRoute: () => protectedRoute,
  path: `${ORGANIZATION_BASE_PATH}/$slug`,
  beforeLoad: async ({ params: { slug } }) => ({ organization: await requireOrganization(slug) }),
  component: screen,
});

export const organizationViewRoute = createRoute({
  getParentRoute: () => protectedRoute,
  path: `${ORGANIZATION_BASE_PATH}/$slug/$pathname`,
  beforeLoad: async ({ params: { slug, pathname } }) => {
    if (!isOrganizationView(pathname)) {
      throw redirect({ to: '/organization/$slug/$pathname', params: { slug, pathname: 'settings' }, replace: true });
    }
    return { organization: await requireOrganization(slug) };
  },
  component: screen,
});
