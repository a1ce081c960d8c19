// The signed-in app's top bar: logo, who is signed in, and the sign-out control.
import { useNavigate } from '@tanstack/react-router';
import type { SessionUser } from '../lib/auth-client';
import { m } from '../lib/i18n';
import { Button } from './button';
import { Logo } from './logo';

function initials(name: string, email: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 0 ? words.slice(0, 2).map((word) => word[0]) : [email[0]];
  return letters.join('').toUpperCase();
}

export function AppHeader({ user }: { user: SessionUser }) {
  const navigate = useNavigate();
  return (
    <header className="sticky top-0 z-10 border-b border-slate-200 bg-white/90 backdrop-blur">
      <div className="mx-auto flex max-w-5xl items-center justify-between gap-4 px-6 py-3">
        <Logo />
        <div className="flex items-center gap-3">
          <div className="flex items-center gap-3" data-testid="current-user">
            <span
              className="grid size-9 place-items-center rounded-full bg-brand-100 text-sm font-semibold text-brand-700"
              aria-hidden="true"
            >
              {initials(user.name, user.email)}
            </span>
            <div className="hidden text-right leading-tight sm:block">
              <p className="text-sm font-medium text-slate-900">{user.name}</p>
              <p className="text-xs text-slate-500">{user.email}</p>
            </div>
          </div>
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
