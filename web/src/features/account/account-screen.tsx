// "/account/$pathname": better-auth-ui's account views. Settings: avatar (cropped square, Gravatar when
// none), name, username, email; security: password, sessions, account deletion.
import { AccountView } from '@daveyplate/better-auth-ui';
import { getRouteApi } from '@tanstack/react-router';
import { AVATAR_OPTIONS } from '../../lib/auth-ui/avatar-image';
import { EngramAuthUIProvider } from '../../lib/auth-ui/provider';
import { m } from '../../lib/i18n';

const accountRoute = getRouteApi('/protected/account/$pathname');

export function AccountScreen() {
  const { pathname } = accountRoute.useParams();
  return (
    <EngramAuthUIProvider avatar={AVATAR_OPTIONS}>
      <main className="mx-auto w-full max-w-5xl px-6 py-10">
        <h1 className="mb-8 text-2xl font-semibold tracking-tight text-slate-900">{m.account_title()}</h1>
        <AccountView pathname={pathname} />
      </main>
    </EngramAuthUIProvider>
  );
}
