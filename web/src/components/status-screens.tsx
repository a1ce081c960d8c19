// Whole-page states: loading, not found, and the "Something went wrong!" fallback with its error details toggle.
import { Link } from '@tanstack/react-router';
import { type ReactNode, useState } from 'react';
import { m } from '../lib/i18n';
import { Button, buttonClass } from './button';
import { LanguageSwitcher } from './language-switcher';
import { Spinner } from './spinner';

export function LoadingScreen({ label }: { label?: string }) {
  return (
    <div className="grid min-h-dvh place-items-center" role="status">
      <div className="flex items-center gap-3 text-slate-500">
        <Spinner className="size-5 text-brand-600" />
        <span className="text-sm font-medium">{label ?? m.app_loading()}</span>
      </div>
    </div>
  );
}

function Centered({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main id="main" tabIndex={-1} className="grid min-h-dvh place-items-center px-6">
      <div className="max-w-md text-center">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
        {children}
        <LanguageSwitcher className="mt-10" />
      </div>
    </main>
  );
}

export function NotFoundScreen() {
  return (
    <Centered title={m.not_found_title()}>
      <p className="mt-2 text-sm text-slate-600">{m.not_found_text()}</p>
      <Link to="/" className={buttonClass('primary', 'mt-6')}>
        {m.not_found_home()}
      </Link>
    </Centered>
  );
}

export function ErrorScreen({ error }: { error: unknown }) {
  const [showDetails, setShowDetails] = useState(false);
  const details = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return (
    <Centered title={m.error_screen_title()}>
      <p className="mt-2 text-sm text-slate-600">{m.error_screen_text()}</p>
      <div className="mt-6 flex justify-center gap-3">
        <Button variant="secondary" onClick={() => setShowDetails((shown) => !shown)} aria-expanded={showDetails}>
          {showDetails ? m.error_screen_hide() : m.error_screen_show()}
        </Button>
        <Button onClick={() => window.location.reload()}>{m.error_screen_reload()}</Button>
      </div>
      {showDetails && (
        <pre className="mt-6 max-h-64 overflow-auto rounded-lg bg-slate-900 p-4 text-left text-xs text-red-200">
          {details}
        </pre>
      )}
    </Centered>
  );
}
