// The auth screens speak the app's languages: every string better-auth-ui can show has an Engram message,
// its error codes read the same catalogue as every other error toast, and the product's messages are exact.
import { authLocalization as libraryDefaults } from '@daveyplate/better-auth-ui';
import { afterEach, describe, expect, it } from 'vitest';
import { authLocalization } from '../../src/lib/auth-ui/localization.ts';
import { ERROR_CATALOGUE } from '../../src/lib/errors.ts';
import { setLocale } from '../../src/lib/i18n.ts';

afterEach(() => setLocale('en'));

const libraryKeys = Object.keys(libraryDefaults).sort();

describe('the auth screens’ localization', () => {
  it('has a text for every key of the library, in English and in Portuguese', () => {
    for (const locale of ['en', 'pt-BR'] as const) {
      setLocale(locale);
      const texts = authLocalization(ERROR_CATALOGUE);
      for (const key of libraryKeys) expect(texts[key as keyof typeof texts], `${locale} ${key}`).toBeTruthy();
    }
  });

  it('shows no English default of the library in Portuguese', () => {
    setLocale('pt-BR');
    const texts = authLocalization(ERROR_CATALOGUE) as Record<string, string>;
    // Names and examples that read the same in both languages.
    const same = new Set(['AVATAR', 'NAME_PLACEHOLDER', 'USERNAME_PLACEHOLDER']);
    const untranslated = libraryKeys.filter(
      (key) => !same.has(key) && texts[key] === (libraryDefaults as Record<string, string>)[key],
    );
    expect(untranslated).toEqual([]);
  });

  it('takes error codes from the app’s error catalogue, so toasts read alike everywhere', () => {
    setLocale('pt-BR');
    const texts = authLocalization(ERROR_CATALOGUE) as Record<string, string>;
    for (const [code, text] of Object.entries(ERROR_CATALOGUE)) expect(texts[code], code).toBe(text());
    expect(texts.INVALID_EMAIL_OR_PASSWORD).toBe('E-mail ou senha inválidos');
  });

  it('shows the texts a screen needs before its first request, in the language, before the catalogue loads', () => {
    setLocale('pt-BR');
    const early = authLocalization() as Record<string, string>;
    const full = authLocalization(ERROR_CATALOGUE) as Record<string, string>;
    // Every catalogue code there early has the catalogue's own text, and the texts forms show are among them.
    const earlyCodes = Object.keys(ERROR_CATALOGUE).filter((code) => early[code] !== undefined);
    for (const code of earlyCodes) expect(early[code], code).toBe(full[code]);
    for (const key of [
      'INVALID_EMAIL',
      'PASSWORD_TOO_SHORT',
      'BACKUP_CODE_REQUIRED',
      'SESSION_NOT_FRESH',
      'INVALID_TOKEN',
    ]) {
      expect(earlyCodes, key).toContain(key);
    }
    expect(early.PASSWORD_REQUIRED).toBe(full.PASSWORD_REQUIRED);
    expect(early.INVALID_EMAIL_OR_PASSWORD).toBeUndefined();
  });

  it('words the validation messages exactly as the product does', () => {
    const texts = authLocalization(ERROR_CATALOGUE);
    expect(`${texts.EMAIL} ${texts.IS_INVALID}`).toBe('Email is invalid');
    expect(`${texts.USERNAME} ${texts.IS_REQUIRED}`).toBe('Username is required');
    expect(texts.EMAIL_REQUIRED).toBe('Email address is required.');
    expect(texts.PASSWORD_REQUIRED).toBe('Password is required.');
    expect(texts.NEW_PASSWORD_REQUIRED).toBe('New password is required.');
    expect(texts.CONFIRM_PASSWORD_REQUIRED).toBe('Confirm password is required.');
    expect(texts.PASSWORDS_DO_NOT_MATCH).toBe('Passwords do not match.');
    expect(texts.EMAIL_IS_THE_SAME).toBe('Email is the same.');
    expect(texts.BACKUP_CODE_REQUIRED).toBe('Backup code is required.');
    expect(texts.SESSION_NOT_FRESH).toBe('Your session is not fresh. Please sign in again.');
    expect(texts.SLUG_REQUIRED).toBe('Organization slug is required.');
    expect(texts.SLUG_DOES_NOT_MATCH).toBe('The slug does not match.');
  });

  it('names the limits of the contracts in its hints', () => {
    const texts = authLocalization(ERROR_CATALOGUE);
    expect(texts.CHANGE_PASSWORD_INSTRUCTIONS).toBe('Please use 8 characters at minimum.');
    expect(texts.NAME_INSTRUCTIONS).toBe('Please use 32 characters at maximum.');
    expect(texts.USERNAME_INSTRUCTIONS).toBe('Please use 32 characters at maximum.');
    expect(texts.ORGANIZATION_SLUG_INSTRUCTIONS).toBe('Please use 48 characters at maximum.');
  });
});
