// The signed-in app's top bar: logo, the app's sections (once onboarded; the admin area for admins), who is
// signed in (a link to their account settings), and sign-out; above it, while an admin impersonates a user,
// the impersonation banner.
import { Link, useNavigate } from '@tanstack/react-router';
import type { SessionUser } from '../lib/auth-client';
import { m } from '../lib/i18n';
import { Button } from './button';
import { ImpersonationBanner } from './impersonation-banner';
import { LanguageSwitcher } from './language-switcher';
import { Logo } from './logo';

function initials(name: string, email: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 0 ? words.slice(0, 2).map((word) => word[0]) : [email[0]];
  return letters.join('').toUpperCase();
}

const NAV_LINK =
  'rounded-md px-2.5 py-1.5 text-sm font-medium text-slate-600 transition hover:bg-slate-100 hover:text-slate-900';

/** Shown only to onboarded users: the protected group would send anyone else back to /onboarding. */
function AppNav({ admin }: { admin: boolean }) {
  return (
    <nav aria-label={m.nav_main()} className="flex items-center gap-1">
      <Link to="/dashboard" className={NAV_LINK} activeProps={{ className: 'bg-slate-100 text-slate-900' }}>
        {m.nav_dashboard()}
      </Link>
      <Link to="/practice/new" className={NAV_LINK} activeProps={{ className: 'bg-slate-100 text-slate-900' }}>
        {m.nav_practice()}
      </Link>
      <Link to="/billing/plans" className={NAV_LINK} activeProps={{ className: 'bg-slate-100 text-slate-900' }}>
        {m.nav_plans()}
      </Link>
      <Link
        to="/account/$pathname"
        params={{ pathname: 'organizations' }}
        className={NAV_LINK}
        activeProps={{ className: 'bg-slate-100 text-slate-900' }}
      >
        {m.nav_organizations()}
      </Link>
      <Link to="/settings" className={NAV_LINK} activeProps={{ className: 'bg-slate-100 text-slate-900' }}>
        {m.nav_settings()}
      </Link>
      {admin && (
        <Link to="/admin" className={NAV_LINK} activeProps={{ className: 'bg-slate-100 text-slate-900' }}>
          {m.nav_admin()}
        </Link>
      )}
    </nav>
  );
}

export function AppHeader({ user, impersonated }: { user: SessionUser; impersonated: boolean }) {
  const navigate = useNavigate();
  return (
    <header className="sticky top-0 z-10 border-b border-slate-200 bg-white/90 backdrop-blur">
      {impersonated && <ImpersonationBanner user={user} />}
      <div className="mx-auto flex max-w-5xl items-center justify-between gap-4 px-6 py-3">
        <div className="flex items-center gap-6">
          <Logo />
          {user.onboardedAt && <AppNav admin={user.role === 'admin'} />}
        </div>
        <div className="flex items-center gap-3">
          <LanguageSwitcher />
          <Link
            to="/account/$pathname"
            params={{ pathname: 'settings' }}
            className="flex items-center gap-3 rounded-lg p-1 hover:bg-slate-100"
            title={m.nav_account_settings()}
            data-testid="current-user"
          >
            {user.image ? (
              <img src={user.image} alt="" className="size-9 rounded-full object-cover" />
            ) : (
              <span
                className="grid size-9 place-items-center rounded-full bg-brand-100 text-sm font-semibold text-brand-700"
                aria-hidden="true"
              >
                {initials(user.name, user.email)}
              </span>
            )}
            <div className="hidden text-right leading-tight sm:block">
              <p className="text-sm font-medium text-slate-900">{user.name}</p>
              <p className="text-xs text-slate-600">{user.email}</p>
            </div>
            <span className="sr-only">{m.nav_account_settings()}</span>
          </Link>
          <Button
            variant="secondary"
            onClick={() => void navigate({ to: '/auth/$pathname', params: { pathname: 'sign-out' } })}
          >
            {m.nav_sign_out()}
          </Button>
        </div>
      </div>
    </header>
  );
}
