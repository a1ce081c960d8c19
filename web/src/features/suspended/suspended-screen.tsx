// What a banned user sees instead of the app: that the account is suspended, whom to ask, and a way out.
import { Link } from '@tanstack/react-router';
import { buttonClass } from '../../components/button';
import { LanguageSwitcher } from '../../components/language-switcher';
import { Logo } from '../../components/logo';
import { m } from '../../lib/i18n';

export function SuspendedScreen() {
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
        <Link to="/auth/$pathname" params={{ pathname: 'sign-out' }} className={buttonClass('primary', 'mt-6 w-full')}>
          {m.nav_sign_out()}
        </Link>
      </section>
      <LanguageSwitcher className="mt-6" />
    </main>
  );
}
