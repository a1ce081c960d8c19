// The app's language (English or Brazilian Portuguese): the browser's language on a first visit, the
// user's choice after that (remembered in localStorage), and <html lang> kept in step. Every visible
// string is a compiled Paraglide message: `import { m } from './i18n'` and render `m.cards_heading()`.
import { useSyncExternalStore } from 'react';
import { m } from '../generated/paraglide/messages.js';
import {
  defineCustomClientStrategy,
  getLocale,
  type Locale,
  locales,
  setLocale as storeLocale,
} from '../generated/paraglide/runtime.js';

export { getLocale, type Locale, locales, m };

/** Each language named in itself, as a language picker shows it. */
export const LOCALE_NAMES: Record<Locale, string> = { en: 'English', 'pt-BR': 'Português (Brasil)' };

const primary = (tag: string) => tag.toLowerCase().split('-')[0];

/**
 * The first of the browser's languages the app speaks. A regional variant the app lacks falls back to
 * the same language (pt-PT gets pt-BR, en-GB gets en) rather than to English.
 */
export function localeFromLanguages(languages: readonly string[]): Locale | undefined {
  for (const language of languages) {
    const exact = locales.find((locale) => locale.toLowerCase() === language.toLowerCase());
    if (exact) return exact;
    const sameLanguage = locales.find((locale) => primary(locale) === primary(language));
    if (sameLanguage) return sameLanguage;
  }
  return undefined;
}

// The "custom-browserLanguage" step of the strategy in project.inlang/paraglide.config.js.
defineCustomClientStrategy('custom-browserLanguage', {
  getLocale: () => (typeof navigator === 'undefined' ? undefined : localeFromLanguages(navigator.languages ?? [])),
  // The browser's language is only read; the choice is remembered by the localStorage step.
  setLocale: () => {},
});

const listeners = new Set<() => void>();

/** Keeps <html lang> equal to the current language (screen readers and hyphenation read it). */
export function syncDocumentLanguage(): void {
  if (typeof document !== 'undefined') document.documentElement.lang = getLocale();
}

/** Switches the language without a page load, remembers it, and re-renders every subscriber. */
export function setLocale(locale: Locale): void {
  if (!locales.includes(locale)) throw new Error(`Unsupported language "${String(locale)}"`);
  if (locale === getLocale()) return;
  storeLocale(locale, { reload: false });
  syncDocumentLanguage();
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Calls `listener` after every language switch (for code outside React, such as the cookie banner). */
export const onLocaleChange = subscribe;

/** The current language; the component re-renders when it changes. */
export function useLocale(): Locale {
  return useSyncExternalStore(subscribe, getLocale, getLocale);
}
