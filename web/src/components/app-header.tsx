// The signed-in app's top bar: logo, the app's sections (once onboarded; the admin area for admins), the
// language, who is signed in (a link to their account settings), and sign-out; above it, while an admin
// impersonates a user, the impersonation banner. Below the xl breakpoint all but the logo fold into the menu
// (app-menu.tsx), so the bar never runs off a phone's screen or overlaps itself on a laptop. The bar is wider than
// the pages under it (7xl, not 6xl): at 1280 px an admin's row in Portuguese needs about 1,140 px, 6xl leaves 1,104.
import { Link, useNavigate } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import type { SessionUser } from '../lib/auth-client';
import { m } from '../lib/i18n';
import { AppMenu } from './app-menu';
import { AppNav } from './app-nav';
import { Button } from './button';
import { LanguageSwitcher } from './language-switcher';
import { Logo } from './logo';
import { UserAvatar } from './user-avatar';

// Only an admin acting as someone sees the banner, so its code loads then, not with every first visit.
const ImpersonationBanner = lazy(() =>
  import('./impersonation-banner').then((module) => ({ default: module.ImpersonationBanner })),
);

export function AppHeader({ user, impersonated }: { user: SessionUser; impersonated: boolean }) {
  const navigate = useNavigate();
  const signOut = () => void navigate({ to: '/auth/$pathname', params: { pathname: 'sign-out' } });
  return (
    <header className="sticky top-0 z-20 border-b border-slate-200 bg-white/90 backdrop-blur">
      {impersonated && (
        <Suspense>
          <ImpersonationBanner user={user} />
        </Suspense>
      )}
      <div className="mx-auto flex max-w-7xl items-center justify-between gap-4 px-4 py-3 sm:px-6">
        <div className="flex shrink-0 items-center gap-6">
          <Logo />
          {user.onboardedAt && (
            <div className="hidden xl:block">
              <AppNav admin={user.role === 'admin'} layout="row" />
            </div>
          )}
        </div>
        <div className="hidden min-w-0 items-center gap-3 xl:flex">
          <LanguageSwitcher className="shrink-0" />
          <Link
            to="/account/$pathname"
            params={{ pathname: 'settings' }}
            className="flex min-w-0 items-center gap-3 rounded-lg p-1 hover:bg-slate-100"
            title={m.nav_account_settings()}
            data-testid="current-user"
          >
            <UserAvatar user={user} />
            {/* A long name or address is cut short here; the link's title and the account page show it whole. */}
            <div className="min-w-0 text-right leading-tight">
              <p className="truncate text-sm font-medium text-slate-900">{user.name}</p>
              <p className="truncate text-xs text-slate-600">{user.email}</p>
            </div>
            <span className="sr-only">{m.nav_account_settings()}</span>
          </Link>
          <Button variant="secondary" className="shrink-0" onClick={signOut}>
            {m.nav_sign_out()}
          </Button>
        </div>
        <AppMenu user={user} onSignOut={signOut} />
      </div>
    </header>
  );
}
