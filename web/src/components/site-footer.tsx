// The footer of every page: help, terms and privacy, "Cookie settings" (reopens the consent preferences),
// the language (unless the page's header has it) and theme pickers, and the copyright line.
import { Link } from '@tanstack/react-router';
import { openCookieSettings } from '../lib/consent-loader';
import { m } from '../lib/i18n';
import { LanguageSwitcher } from './language-switcher';
import { ThemeSwitcher } from './theme-switcher';

const LINK =
  'rounded-sm text-slate-600 underline-offset-4 hover:text-slate-900 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600';

export function SiteFooter({ languagePicker = true }: { languagePicker?: boolean }) {
  return (
    <footer className="border-t border-slate-200">
      <div className="mx-auto flex w-full max-w-6xl flex-wrap items-center justify-between gap-x-6 gap-y-4 px-6 py-6 text-sm">
        <nav aria-label={m.footer_nav()}>
          <ul className="flex flex-wrap items-center gap-x-5 gap-y-2">
            <li>
              <Link to="/help" className={LINK}>
                {m.footer_help()}
              </Link>
            </li>
            <li>
              <Link to="/terms" className={LINK}>
                {m.footer_terms()}
              </Link>
            </li>
            <li>
              <Link to="/privacy" className={LINK}>
                {m.footer_privacy()}
              </Link>
            </li>
            <li>
              <button type="button" className={`cursor-pointer ${LINK}`} onClick={() => void openCookieSettings()}>
                {m.footer_cookie_settings()}
              </button>
            </li>
          </ul>
        </nav>
        <div className="flex flex-wrap items-center gap-3">
          {languagePicker && <LanguageSwitcher />}
          <ThemeSwitcher />
        </div>
        <p className="w-full text-xs text-slate-600">{m.footer_copyright({ year: new Date().getFullYear() })}</p>
      </div>
    </footer>
  );
}
