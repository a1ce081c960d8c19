// What a banned user sees instead of the app: that the account is suspended, the reason the administrator
// gave and when the suspension ends (if it does), how to reach support, and a way out.
import { banReasonOf } from '@engram/contracts/auth';
import { Link } from '@tanstack/react-router';
import { buttonClass } from '../../components/button';
import { LanguageSwitcher } from '../../components/language-switcher';
import { Logo } from '../../components/logo';
import { SupportContact } from '../../components/support-contact';
import { authClient } from '../../lib/auth-client';
import { getLocale, m } from '../../lib/i18n';

const formatEnd = (expires: Date | string) =>
  new Intl.DateTimeFormat(getLocale(), { dateStyle: 'long', timeStyle: 'short' }).format(new Date(expires));

export function SuspendedScreen() {
  // The route's guard has read the session, and found the user banned.
  const user = authClient.useSession().data?.user;
  const ban = { reason: banReasonOf(user?.banReason), expires: user?.banExpires };
  return (
    <main id="main" tabIndex={-1} className="flex min-h-dvh flex-col items-center justify-center px-6 py-12">
      <Logo className="mb-8" />
      <section
        aria-labelledby="suspended-title"
        className="w-full max-w-md rounded-2xl bg-white p-8 text-center shadow-lg shadow-slate-200/60 ring-1 ring-slate-200"
      >
        <h1 id="suspended-title" className="text-xl font-semibold tracking-tight text-slate-900">
          {m.suspended_title()}
        </h1>
        <p className="mt-3 text-sm text-slate-600">{m.suspended_text()}</p>
        {ban.reason && (
          <p className="mt-4 rounded-lg bg-slate-50 px-4 py-3 text-sm break-words text-slate-800">
            {m.suspended_reason({ reason: ban.reason })}
          </p>
        )}
        {ban.expires && (
          <p className="mt-3 text-sm text-slate-600">{m.suspended_until({ date: formatEnd(ban.expires) })}</p>
        )}
        <p className="mt-4 text-sm text-slate-600">
          <SupportContact />
        </p>
        <Link to="/auth/$pathname" params={{ pathname: 'sign-out' }} className={buttonClass('primary', 'mt-6 w-full')}>
          {m.nav_sign_out()}
        </Link>
      </section>
      <LanguageSwitcher className="mt-6" />
    </main>
  );
}
