// "/": the product pitch for visitors; a signed-in user goes straight to the dashboard.
import { createRoute, Link, redirect } from '@tanstack/react-router';
import { buttonClass } from '../components/button';
import { LanguageSwitcher } from '../components/language-switcher';
import { Logo } from '../components/logo';
import { m } from '../lib/i18n';
import { DEFAULT_REDIRECT } from '../lib/redirects';
import { loadSession } from '../lib/session';
import { rootRoute } from './root';

/** Read at render time, so the texts follow the current language. */
const features = () => [
  { title: m.landing_feature_capture_title(), text: m.landing_feature_capture_text() },
  { title: m.landing_feature_review_title(), text: m.landing_feature_review_text() },
  { title: m.landing_feature_progress_title(), text: m.landing_feature_progress_text() },
];

function Landing() {
  return (
    <div className="flex min-h-dvh flex-col bg-gradient-to-b from-brand-50 via-white to-white">
      <header className="mx-auto flex w-full max-w-6xl items-center justify-between px-6 py-5">
        <Logo />
        <nav className="flex items-center gap-2" aria-label={m.nav_account()}>
          <Link to="/auth/$pathname" params={{ pathname: 'sign-in' }} className={buttonClass('ghost')}>
            {m.nav_sign_in()}
          </Link>
          <Link to="/auth/$pathname" params={{ pathname: 'sign-up' }} className={buttonClass('primary')}>
            {m.nav_get_started()}
          </Link>
        </nav>
      </header>

      <main className="mx-auto w-full max-w-6xl flex-1 px-6">
        <section className="py-20 text-center sm:py-28">
          <p className="text-sm font-semibold tracking-wide text-brand-600 uppercase">{m.landing_tagline()}</p>
          <h1 className="mx-auto mt-4 max-w-3xl text-4xl font-bold tracking-tight text-balance text-slate-900 sm:text-6xl">
            {m.landing_title()}
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg text-pretty text-slate-600">{m.landing_subtitle()}</p>
          <div className="mt-10 flex flex-wrap justify-center gap-3">
            {/* These links fetch the auth screen once they come within 100 px of view, so a click opens it at once. */}
            <Link
              to="/auth/$pathname"
              params={{ pathname: 'sign-up' }}
              preload="viewport"
              className={buttonClass('primary', 'px-6 py-3')}
            >
              {m.landing_create_account()}
            </Link>
            <Link
              to="/auth/$pathname"
              params={{ pathname: 'sign-in' }}
              preload="viewport"
              className={buttonClass('secondary', 'px-6 py-3')}
            >
              {m.landing_have_account()}
            </Link>
          </div>
        </section>

        <section aria-labelledby="features" className="pb-24">
          <h2 id="features" className="sr-only">
            {m.landing_features()}
          </h2>
          <ul className="grid gap-6 sm:grid-cols-3">
            {features().map((feature) => (
              <li key={feature.title} className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
                <h3 className="font-semibold text-slate-900">{feature.title}</h3>
                <p className="mt-2 text-sm leading-6 text-slate-600">{feature.text}</p>
              </li>
            ))}
          </ul>
        </section>
      </main>

      <footer className="mx-auto flex w-full max-w-6xl items-center justify-between gap-4 border-t border-slate-200 px-6 py-6 text-xs text-slate-500">
        <span>{m.footer_copyright({ year: new Date().getFullYear() })}</span>
        <LanguageSwitcher />
      </footer>
    </div>
  );
}

export const landingRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  beforeLoad: async () => {
    if (await loadSession()) throw redirect({ to: DEFAULT_REDIRECT });
  },
  component: Landing,
});
