// The header of the pages a visitor sees (landing, help, terms, privacy): the logo, and sign-in and sign-up,
// or a way into the app for someone already signed in.
import { Link } from '@tanstack/react-router';
import { authClient } from '../lib/auth-client';
import { m } from '../lib/i18n';
import { buttonClass } from './button';
import { Logo } from './logo';

export function PublicHeader() {
  const { data: session } = authClient.useSession();
  return (
    <header className="mx-auto flex w-full max-w-6xl items-center justify-between px-6 py-5">
      <Logo />
      <nav className="flex items-center gap-2" aria-label={m.nav_account()}>
        {session ? (
          <Link to="/dashboard" className={buttonClass('primary')}>
            {m.nav_open_app()}
          </Link>
        ) : (
          <>
            <Link to="/auth/$pathname" params={{ pathname: 'sign-in' }} className={buttonClass('ghost')}>
              {m.nav_sign_in()}
            </Link>
            <Link to="/auth/$pathname" params={{ pathname: 'sign-up' }} className={buttonClass('primary')}>
              {m.nav_get_started()}
            </Link>
          </>
        )}
      </nav>
    </header>
  );
}
