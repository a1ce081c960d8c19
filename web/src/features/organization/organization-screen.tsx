// An organization's views (better-auth-ui's OrganizationView in slug mode): settings (name, slug, logo,
// deletion with the slug typed), members (invite, roles, remove), teams, API keys; a tab leads to its
// shared decks view, and the organization switcher moves to another of the user's organizations (or their
// personal dashboard).
import { OrganizationSwitcher, OrganizationView } from '@daveyplate/better-auth-ui';
import { useParams } from '@tanstack/react-router';
import { NeedsNetwork } from '../../components/needs-network';
import { EngramAuthUIProvider } from '../../lib/auth-ui/provider';
import { m } from '../../lib/i18n';
import { organizationAuthClient } from '../../lib/organization-client';
import { OrganizationNav } from './organization-nav';

export function OrganizationScreen() {
  const { slug, pathname } = useParams({ strict: false }) as { slug: string; pathname?: string };
  return (
    <EngramAuthUIProvider client={organizationAuthClient}>
      <main id="main" tabIndex={-1} className="mx-auto w-full max-w-5xl px-6 py-10">
        <NeedsNetwork />
        <div className="mb-4 flex flex-wrap items-center justify-between gap-4">
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{m.organization_title()}</h1>
          <OrganizationSwitcher slug={slug} size="sm" align="end" />
        </div>
        <OrganizationNav slug={slug} current="manage" />
        <OrganizationView slug={slug} pathname={pathname ?? 'settings'} />
      </main>
    </EngramAuthUIProvider>
  );
}
