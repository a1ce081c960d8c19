// The web app speaks English and Brazilian Portuguese: every message in both, the browser's language on
// a first visit, and a switch that changes every message.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { getLocale, localeFromLanguages, locales, m, setLocale } from '../../src/lib/i18n.ts';

const readMessages = (locale: string): Record<string, string> => {
  const { $schema: _schema, ...messages } = JSON.parse(
    readFileSync(new URL(`../../messages/${locale}.json`, import.meta.url), 'utf8'),
  ) as Record<string, string>;
  return messages;
};

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

afterEach(() => setLocale('en'));

describe('the message catalogue', () => {
  const english = readMessages('en');
  const portuguese = readMessages('pt-BR');

  it('has English and Brazilian Portuguese', () => {
    expect(locales).toEqual(['en', 'pt-BR']);
  });

  it('has every English message in Brazilian Portuguese, and nothing only in Portuguese', () => {
    expect(Object.keys(portuguese).sort()).toEqual(Object.keys(english).sort());
  });

  it('has no empty message, and the same placeholders in both languages', () => {
    for (const [key, text] of Object.entries(english)) {
      const translated = portuguese[key] ?? '';
      expect(text.trim(), key).not.toBe('');
      expect(translated.trim(), key).not.toBe('');
      expect(placeholders(translated), key).toEqual(placeholders(text));
    }
  });
});

describe('choosing the language', () => {
  it('takes the first browser language the app speaks, a regional variant falling back to its language', () => {
    expect(localeFromLanguages(['pt-BR', 'en-US'])).toBe('pt-BR');
    expect(localeFromLanguages(['pt-PT'])).toBe('pt-BR');
    expect(localeFromLanguages(['pt'])).toBe('pt-BR');
    expect(localeFromLanguages(['de-DE', 'en-GB', 'pt-BR'])).toBe('en');
    expect(localeFromLanguages(['de-DE', 'fr'])).toBeUndefined();
    expect(localeFromLanguages([])).toBeUndefined();
  });

  it('renders messages in the language set, with their values filled in', () => {
    expect(m.cards_heading()).toBe('Your cards');
    setLocale('pt-BR');
    expect(getLocale()).toBe('pt-BR');
    expect(m.cards_heading()).toBe('Seus cartões');
    expect(m.new_card_hint({ max: 2000 })).toBe('Até 2000 caracteres por lado.');
    setLocale('en');
    expect(m.new_card_hint({ max: 2000 })).toBe('Up to 2000 characters per side.');
  });

  it('refuses a language the app does not have', () => {
    expect(() => setLocale('de' as 'en')).toThrow('Unsupported language "de"');
    expect(getLocale()).toBe('en');
  });
});
