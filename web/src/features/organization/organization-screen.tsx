// An organization's views (better-auth-ui's OrganizationView in slug mode): settings (name, slug, logo,
// deletion with the slug typed), members (invite, roles, remove) with the organization's roles below them,
// teams, API keys; a tab leads to its shared decks view, and the organization switcher moves to another of the
// user's organizations (or their personal dashboard). Every role the organization has is offered and shown by
// its label: guest and the custom roles, which the library knows only when told (its own are owner, admin and
// member).
import { OrganizationSwitcher, OrganizationView } from '@daveyplate/better-auth-ui';
import { useQuery } from '@tanstack/react-query';
import { useParams, useRouteContext } from '@tanstack/react-router';
import { useMemo } from 'react';
import { NeedsNetwork } from '../../components/needs-network';
import { guestRole } from '../../entities/organizations/role-labels';
import { EngramAuthUIProvider } from '../../lib/auth-ui/provider';
import { m, useLocale } from '../../lib/i18n';
import { organizationAuthClient } from '../../lib/organization-client';
import { OrganizationNav } from './organization-nav';
import { roleLabelsOptions } from './roles/queries';
import { RolesSection } from './roles/roles-section';

interface ScreenContext {
  organization?: { id: string } | undefined;
  session?: { user: { id: string } };
}

export function OrganizationScreen() {
  const { slug, pathname } = useParams({ strict: false }) as { slug: string; pathname?: string };
  const { organization, session } = useRouteContext({ strict: false }) as ScreenContext;
  const labels = useQuery({ ...roleLabelsOptions(organization?.id ?? ''), enabled: Boolean(organization) });
  const locale = useLocale();
  // biome-ignore lint/correctness/useExhaustiveDependencies: guest's label is read in the language of the moment.
  const customRoles = useMemo(() => [guestRole(), ...(labels.data ?? [])], [labels.data, locale]);
  const view = pathname ?? 'settings';
  return (
    <EngramAuthUIProvider client={organizationAuthClient} customRoles={customRoles}>
      <main id="main" tabIndex={-1} className="mx-auto w-full max-w-5xl px-6 py-10">
        <NeedsNetwork />
        <div className="mb-4 flex flex-wrap items-center justify-between gap-4">
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{m.organization_title()}</h1>
          <OrganizationSwitcher slug={slug} size="sm" align="end" />
        </div>
        <OrganizationNav slug={slug} current="manage" />
        <OrganizationView slug={slug} pathname={view} />
        {view === 'members' && organization && session && (
          <RolesSection organizationId={organization.id} userId={session.user.id} />
        )}
      </main>
    </EngramAuthUIProvider>
  );
}
