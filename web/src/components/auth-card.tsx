// The frame shared by the auth views: logo, a titled card, and a footer line under it.
import type { ReactNode } from 'react';
import { LanguageSwitcher } from './language-switcher';
import { Logo } from './logo';

type AuthCardProps = { title: string; description: string; children: ReactNode; footer?: ReactNode };

export function AuthCard({ title, description, children, footer }: AuthCardProps) {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-gradient-to-b from-brand-50 to-slate-50 px-4 py-12">
      <Logo className="mb-8" />
      <section
        aria-labelledby="auth-title"
        className="w-full max-w-sm rounded-2xl bg-white p-8 shadow-lg shadow-slate-200/60 ring-1 ring-slate-200"
      >
        <h1 id="auth-title" className="text-xl font-semibold tracking-tight text-slate-900">
          {title}
        </h1>
        <p className="mt-1 text-sm text-slate-600">{description}</p>
        <div className="mt-6">{children}</div>
      </section>
      {footer && <p className="mt-6 text-sm text-slate-600">{footer}</p>}
      <LanguageSwitcher className="mt-6" />
    </main>
  );
}
