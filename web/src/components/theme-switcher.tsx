// The theme picker beside the language picker: the system's theme, light or dark, as a labelled native
// select. The choice applies at once and is remembered (lib/theme.ts).
import { useId } from 'react';
import { m } from '../lib/i18n';
import { setThemeChoice, THEME_CHOICES, type ThemeChoice, useTheme } from '../lib/theme';

const label = (choice: ThemeChoice) =>
  choice === 'dark' ? m.theme_dark() : choice === 'light' ? m.theme_light() : m.theme_system();

export function ThemeSwitcher({ className = '' }: { className?: string }) {
  const { choice } = useTheme();
  const id = useId();
  return (
    <div className={`inline-flex items-center gap-1.5 text-sm text-slate-600 ${className}`}>
      <label htmlFor={id} className="sr-only">
        {m.theme_label()}
      </label>
      <svg viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
        <path d="M12 3a9 9 0 1 0 9 9 7 7 0 0 1-9-9z" />
      </svg>
      <select
        id={id}
        value={choice}
        onChange={(event) => setThemeChoice(event.target.value as ThemeChoice)}
        className="cursor-pointer rounded-md border-0 bg-transparent py-1 pr-7 pl-1 text-sm text-slate-700 ring-1 ring-slate-200 ring-inset hover:ring-slate-300 focus:ring-2 focus:ring-brand-600 focus:outline-none"
      >
        {THEME_CHOICES.map((option) => (
          <option key={option} value={option}>
            {label(option)}
          </option>
        ))}
      </select>
    </div>
  );
}
