// The language picker every screen carries in its header or footer: a labelled native select, so keyboards
// and screen readers use it like any other field. The choice applies at once and is remembered.
import { useId } from 'react';
import { LOCALE_NAMES, type Locale, locales, m, setLocale, useLocale } from '../lib/i18n';

export function LanguageSwitcher({ className = '' }: { className?: string }) {
  const locale = useLocale();
  const id = useId();
  return (
    <div className={`inline-flex items-center gap-1.5 text-sm text-slate-600 ${className}`}>
      <label htmlFor={id} className="sr-only">
        {m.language_label()}
      </label>
      <svg viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
        <circle cx="12" cy="12" r="9" />
        <path d="M3 12h18M12 3c2.5 2.5 3.8 5.5 3.8 9s-1.3 6.5-3.8 9c-2.5-2.5-3.8-5.5-3.8-9S9.5 5.5 12 3z" />
      </svg>
      <select
        id={id}
        value={locale}
        onChange={(event) => setLocale(event.target.value as Locale)}
        className="cursor-pointer rounded-md border-0 bg-transparent py-1 pr-7 pl-1 text-sm text-slate-700 ring-1 ring-slate-200 ring-inset hover:ring-slate-300 focus:ring-2 focus:ring-brand-600 focus:outline-none"
      >
        {locales.map((option) => (
          <option key={option} value={option} lang={option}>
            {LOCALE_NAMES[option]}
          </option>
        ))}
      </select>
    </div>
  );
}
