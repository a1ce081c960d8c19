// "/account/$pathname": better-auth-ui's account views. Settings: avatar (cropped square, Gravatar when
// none), name, username, email, the accounts of this device, the phone number (where identity can text codes), the learner's card
// files; security: password, two-factor, passkeys,
// linked providers, sessions, account deletion; api-keys: create and delete, and switch each key on or off. A switch of
// account with reviews not yet synced on this device asks first (switch-warning.tsx).
import { AccountView } from '@daveyplate/better-auth-ui';
import { getRouteApi } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { NeedsNetwork } from '../../components/needs-network';
import { WhenNear } from '../../components/when-near';
import { PlanSummary } from '../../entities/billing/plan-summary';
import { AVATAR_OPTIONS } from '../../lib/auth-ui/avatar-image';
import { EngramAuthUIProvider } from '../../lib/auth-ui/provider';
import { usePublicAuthConfig } from '../../lib/auth-ui/public-config';
import { describeSession } from '../../lib/auth-ui/session-description';
import { m } from '../../lib/i18n';
import { organizationAuthClient } from '../../lib/organization-client';
import { CardFiles } from './card-files';
import { PasskeyNames } from './passkey-names';
import { useSwitchWarning } from './switch-warning';

const accountRoute = getRouteApi('/protected/account/$pathname');

// Only on the settings view where phone numbers are on, as the learner scrolls down to it.
const PhoneNumberCard = lazy(() =>
  import('./phone-number-card').then((module) => ({ default: module.PhoneNumberCard })),
);

// Only on the API-keys view: the settings and security views do not load it.
const ApiKeySwitches = lazy(() => import('./api-key-switches').then((module) => ({ default: module.ApiKeySwitches })));

/** Where the phone-number card comes: its heading, and about its height. */
function PhoneNumberPlace() {
  return (
    <section className="mb-6 min-h-40 rounded-xl border border-slate-200 bg-white px-6 py-4 shadow-sm">
      <h2 className="text-lg font-semibold text-slate-900">{m.phone_heading()}</h2>
    </section>
  );
}

export function AccountScreen() {
  const { pathname } = accountRoute.useParams();
  const switching = useSwitchWarning();
  const phoneNumbers = usePublicAuthConfig()?.phoneNumber;
  return (
    // Only the organizations view needs the organization client; the others keep the app's client, so a
    // sign-out or an account switch there updates the session the route guards read, and list
    // organizations (the API-key dialog's owner choice) with the organization client's hook.
    <EngramAuthUIProvider
      avatar={AVATAR_OPTIONS}
      mutators={switching.mutators}
      describeSession={describeSession}
      {...(pathname === 'organizations'
        ? { client: organizationAuthClient }
        : { hooks: { useListOrganizations: organizationAuthClient.useListOrganizations } })}
    >
      <main id="main" tabIndex={-1} className="mx-auto w-full max-w-5xl px-6 py-10">
        <NeedsNetwork />
        <h1 className="mb-8 text-2xl font-semibold tracking-tight text-slate-900">{m.account_title()}</h1>
        {pathname === 'settings' && (
          <>
            <PlanSummary usage className="mb-6 rounded-xl border border-slate-200 bg-white px-6 py-4 shadow-sm" />
            <CardFiles />
          </>
        )}
        <AccountView pathname={pathname} />
        {pathname === 'settings' && phoneNumbers && (
          <div className="mt-6">
            <WhenNear placeholder={<PhoneNumberPlace />}>
              <Suspense fallback={<PhoneNumberPlace />}>
                <PhoneNumberCard />
              </Suspense>
            </WhenNear>
          </div>
        )}
        {pathname === 'api-keys' && (
          <>
            <p className="mt-6 text-sm text-slate-600">
              {m.api_key_docs_text()}{' '}
              <a className="font-medium text-brand-700 underline" href="/api/docs" target="_blank" rel="noopener">
                {m.api_key_docs_link()}
              </a>
              .
            </p>
            <Suspense fallback={null}>
              <ApiKeySwitches />
            </Suspense>
          </>
        )}
        {pathname === 'security' && <PasskeyNames />}
        {switching.dialog}
      </main>
    </EngramAuthUIProvider>
  );
}
