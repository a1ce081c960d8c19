// "Skip to content": the first thing a keyboard reaches on every page, visible once focused. Every screen's
// <main> is #main (focusable, tabIndex -1), so following the link moves focus past the header.
import { m } from '../lib/i18n';

export function SkipLink() {
  return (
    <a
      href="#main"
      className="sr-only z-50 rounded-lg bg-white px-4 py-2 text-sm font-semibold text-brand-700 shadow-lg ring-1 ring-slate-200 focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
    >
      {m.skip_to_content()}
    </a>
  );
}
