// "/" for visitors: what Engram does and how (notes → AI cards → FSRS practice → progress), the plans from
// billing's catalogue, and the ways to sign up. Signed-in users never see it (routes/landing.tsx).
import { Link } from '@tanstack/react-router';
import { buttonClass } from '../../components/button';
import { PublicHeader } from '../../components/public-header';
import { SiteFooter } from '../../components/site-footer';
import { useDocumentHead } from '../../lib/document-head';
import { m } from '../../lib/i18n';
import { PlansSection } from './plans-section';

/** Read at render time, so the texts follow the current language. */
const steps = () => [
  { title: m.landing_step_notes_title(), text: m.landing_step_notes_text() },
  { title: m.landing_step_cards_title(), text: m.landing_step_cards_text() },
  { title: m.landing_step_practice_title(), text: m.landing_step_practice_text() },
  { title: m.landing_step_progress_title(), text: m.landing_step_progress_text() },
];

export function LandingScreen() {
  useDocumentHead(m.meta_landing_title(), m.meta_landing_description());
  return (
    <div className="flex min-h-dvh flex-col bg-gradient-to-b from-brand-50 via-white to-white">
      <PublicHeader />

      <main id="main" tabIndex={-1} className="mx-auto w-full max-w-6xl flex-1 px-6">
        <section className="py-20 text-center sm:py-28">
          <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">{m.landing_tagline()}</p>
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

        <section aria-labelledby="how" className="pb-24">
          <h2 id="how" className="text-center text-3xl font-bold tracking-tight text-slate-900">
            {m.landing_how_title()}
          </h2>
          <ol className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {steps().map((step, index) => (
              <li key={step.title} className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
                <span
                  className="grid size-8 place-items-center rounded-full bg-brand-100 text-sm font-semibold text-brand-700"
                  aria-hidden="true"
                >
                  {index + 1}
                </span>
                <h3 className="mt-4 font-semibold text-slate-900">{step.title}</h3>
                <p className="mt-2 text-sm leading-6 text-slate-600">{step.text}</p>
              </li>
            ))}
          </ol>
        </section>

        <PlansSection />

        <section className="mb-24 rounded-3xl bg-brand-600 px-6 py-14 text-center">
          <h2 className="text-3xl font-bold tracking-tight text-white">{m.landing_cta_title()}</h2>
          <p className="mx-auto mt-3 max-w-xl text-white">{m.landing_cta_text()}</p>
          <Link
            to="/auth/$pathname"
            params={{ pathname: 'sign-up' }}
            className="mt-8 inline-flex items-center justify-center rounded-lg bg-white px-6 py-3 text-sm font-semibold text-brand-700 shadow-sm hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
          >
            {m.landing_create_account()}
          </Link>
        </section>
      </main>

      <SiteFooter />
    </div>
  );
}
