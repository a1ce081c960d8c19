// "/": the product pitch for visitors; a signed-in user goes straight to the dashboard.
import { createRoute, Link, redirect } from '@tanstack/react-router';
import { buttonClass } from '../components/button';
import { Logo } from '../components/logo';
import { DEFAULT_REDIRECT } from '../lib/redirects';
import { loadSession } from '../lib/session';
import { rootRoute } from './root';

const FEATURES = [
  {
    title: 'Capture in seconds',
    text: 'Write a question on the front and the answer on the back. Your deck grows as fast as you learn.',
  },
  {
    title: 'Review at the right moment',
    text: 'Spaced repetition brings each card back just before you would forget it, so reviews stay short.',
  },
  {
    title: 'See your progress',
    text: 'Streaks and review metrics show what you have mastered and what needs another look.',
  },
];

function Landing() {
  return (
    <div className="flex min-h-dvh flex-col bg-gradient-to-b from-brand-50 via-white to-white">
      <header className="mx-auto flex w-full max-w-6xl items-center justify-between px-6 py-5">
        <Logo />
        <nav className="flex items-center gap-2" aria-label="Account">
          <Link to="/auth/$pathname" params={{ pathname: 'sign-in' }} className={buttonClass('ghost')}>
            Sign in
          </Link>
          <Link to="/auth/$pathname" params={{ pathname: 'sign-up' }} className={buttonClass('primary')}>
            Get started
          </Link>
        </nav>
      </header>

      <main className="mx-auto w-full max-w-6xl flex-1 px-6">
        <section className="py-20 text-center sm:py-28">
          <p className="text-sm font-semibold tracking-wide text-brand-600 uppercase">Flashcards × spaced repetition</p>
          <h1 className="mx-auto mt-4 max-w-3xl text-4xl font-bold tracking-tight text-balance text-slate-900 sm:text-6xl">
            Turn what you learn into what you remember
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg text-pretty text-slate-600">
            Engram turns your thoughts into flashcards and schedules every review, so each study session moves you
            closer to mastery.
          </p>
          <div className="mt-10 flex flex-wrap justify-center gap-3">
            <Link to="/auth/$pathname" params={{ pathname: 'sign-up' }} className={buttonClass('primary', 'px-6 py-3')}>
              Create your free account
            </Link>
            <Link
              to="/auth/$pathname"
              params={{ pathname: 'sign-in' }}
              className={buttonClass('secondary', 'px-6 py-3')}
            >
              I already have an account
            </Link>
          </div>
        </section>

        <section aria-labelledby="features" className="pb-24">
          <h2 id="features" className="sr-only">
            Features
          </h2>
          <ul className="grid gap-6 sm:grid-cols-3">
            {FEATURES.map((feature) => (
              <li key={feature.title} className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
                <h3 className="font-semibold text-slate-900">{feature.title}</h3>
                <p className="mt-2 text-sm leading-6 text-slate-600">{feature.text}</p>
              </li>
            ))}
          </ul>
        </section>
      </main>

      <footer className="border-t border-slate-200 py-6 text-center text-xs text-slate-500">
        © {new Date().getFullYear()} Engram
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
