// An organization's views (better-auth-ui's OrganizationView in slug mode): settings (name, slug, logo,
// deletion with the slug typed), members (invite, roles, remove), teams, API keys.
import { OrganizationView } from '@daveyplate/better-auth-ui';
import { useParams } from '@tanstack/react-router';
import { EngramAuthUIProvider } from '../../lib/auth-ui/provider';
import { m } from '../../lib/i18n';
import { organizationAuthClient } from '../../lib/organization-client';

export function OrganizationScreen() {
  const { slug, pathname } = useParams({ strict: false }) as { slug: string; pathname?: string };
  return (
    <EngramAuthUIProvider client={organizationAuthClient}>
      <main className="mx-auto w-full max-w-5xl px-6 py-10">
        <h1 className="mb-8 text-2xl font-semibold tracking-tight text-slate-900">{m.organization_title()}</h1>
        <OrganizationView slug={slug} pathname={pathname ?? 'settings'} />
      </main>
    </EngramAuthUIProvider>
  );
}
