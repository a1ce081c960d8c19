// The narrow header's menu (below xl): a button that opens a panel with everything the wide header shows
// (the app's sections, who is signed in, the language, Sign out) under the bar. A disclosure: the button says
// whether it is open (aria-expanded); opening moves focus to the panel's first control; Escape closes it and
// returns focus to the button; a tap outside, or following one of its links, closes it.
import { Link } from '@tanstack/react-router';
import { useEffect, useId, useRef, useState } from 'react';
import type { SessionUser } from '../lib/auth-client';
import { m } from '../lib/i18n';
import { AppNav } from './app-nav';
import { Button } from './button';
import { LanguageSwitcher } from './language-switcher';
import { UserAvatar } from './user-avatar';

function MenuIcon({ open }: { open: boolean }) {
  return (
    <svg viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      {open ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
    </svg>
  );
}

export function AppMenu({ user, onSignOut }: { user: SessionUser; onSignOut: () => void }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const id = useId();

  useEffect(() => {
    if (!open) return;
    panel.current?.querySelector<HTMLElement>('a, button, select')?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!panel.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);

  return (
    <div className="xl:hidden">
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((wasOpen) => !wasOpen)}
        className="inline-flex min-h-11 items-center gap-2 rounded-lg px-3 text-sm font-semibold text-slate-700 ring-1 ring-slate-300 ring-inset hover:bg-slate-50"
      >
        <MenuIcon open={open} />
        {m.nav_menu()}
      </button>
      {open && (
        // Following a link closes the menu (the page changes under it); the links stay ordinary links.
        // biome-ignore lint/a11y/noStaticElementInteractions: the click only closes the menu after a link inside it
        // biome-ignore lint/a11y/useKeyWithClickEvents: Enter on a link fires this click too
        <div
          ref={panel}
          id={id}
          onClick={(event) => {
            if ((event.target as HTMLElement).closest('a')) setOpen(false);
          }}
          className="absolute inset-x-0 top-full max-h-[calc(100dvh-4.5rem)] overflow-y-auto border-b border-slate-200 bg-white shadow-lg"
        >
          <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-4 sm:px-6">
            {user.onboardedAt && <AppNav admin={user.role === 'admin'} layout="column" />}
            <div className="flex flex-col gap-3 border-t border-slate-200 pt-4">
              <Link
                to="/account/$pathname"
                params={{ pathname: 'settings' }}
                className="flex min-h-11 items-center gap-3 rounded-lg p-2 hover:bg-slate-100"
              >
                <UserAvatar user={user} />
                <div className="min-w-0 leading-tight [overflow-wrap:anywhere]">
                  <p className="text-sm font-medium text-slate-900">{user.name}</p>
                  <p className="text-xs text-slate-600">{user.email}</p>
                  <p className="mt-1 text-xs font-medium text-brand-700">{m.nav_account_settings()}</p>
                </div>
              </Link>
              <div className="flex flex-wrap items-center justify-between gap-3 px-2">
                <LanguageSwitcher className="min-h-11" />
                <Button
                  variant="secondary"
                  className="min-h-11"
                  onClick={() => {
                    setOpen(false);
                    onSignOut();
                  }}
                >
                  {m.nav_sign_out()}
                </Button>
              </div>
            </div>
          </div>
        </div>
      )}
    </div>
  );
}
