// Light and dark themes: the system's by default, or the one the user picked (remembered in localStorage).
// The resolved theme is <html data-theme>, which styles.css reads; public/theme.js sets it before the
// first paint with the same rules, and this module follows the system while the choice is "system".
import { useSyncExternalStore } from 'react';

export const THEME_CHOICES = ['system', 'light', 'dark'] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];
export type Theme = 'light' | 'dark';

const STORAGE_KEY = 'engram.theme';
const listeners = new Set<() => void>();

const systemQuery = () => (typeof matchMedia === 'undefined' ? undefined : matchMedia('(prefers-color-scheme: dark)'));

export function themeChoice(): ThemeChoice {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    return stored === 'light' || stored === 'dark' ? stored : 'system';
  } catch {
    return 'system';
  }
}

export function resolvedTheme(choice: ThemeChoice = themeChoice()): Theme {
  if (choice !== 'system') return choice;
  return systemQuery()?.matches ? 'dark' : 'light';
}

function applyTheme(): void {
  const theme = resolvedTheme();
  const root = document.documentElement;
  root.dataset.theme = theme;
  // The cookie banner's own dark look.
  root.classList.toggle('cc--darkmode', theme === 'dark');
  for (const listener of listeners) listener();
}

/** Switches the theme at once and remembers the choice ("system" forgets it). */
export function setThemeChoice(choice: ThemeChoice): void {
  if (!THEME_CHOICES.includes(choice)) throw new Error(`Unknown theme "${String(choice)}"`);
  try {
    if (choice === 'system') localStorage.removeItem(STORAGE_KEY);
    else localStorage.setItem(STORAGE_KEY, choice);
  } catch {
    // Storage refused (a private window): the choice lasts for this page only.
  }
  applyTheme();
}

/** Keeps the page in step with the system's theme while the user has not picked one. */
export function followSystemTheme(): void {
  applyTheme();
  systemQuery()?.addEventListener('change', applyTheme);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The user's choice and the theme shown; the component re-renders when either changes. */
export function useTheme(): { choice: ThemeChoice; theme: Theme } {
  const choice = useSyncExternalStore(subscribe, themeChoice, () => 'system' as const);
  const theme = useSyncExternalStore(
    subscribe,
    () => resolvedTheme(),
    () => 'light' as const,
  );
  return { choice, theme };
}
