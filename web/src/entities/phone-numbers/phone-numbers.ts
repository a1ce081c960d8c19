// Phone numbers as the forms read them (docs/product.md#phone-numbers): a number typed the way the learner writes
// it, read in E.164 (one without its country code is read in the learner's country: the region of the app's
// language, else of the browser's). identity reads and checks every number again; this only lets the form say
// "Phone number must be valid" before anything is sent. It brings libphonenumber-js's metadata (about 30 KB), so
// only the forms load it, never a page that merely shows a number (formatted-number.tsx).
import { type CountryCode, countryOfLocale, toE164 } from '@engram/contracts/phone-numbers';

export { formatPhoneNumber } from '@engram/contracts/phone-numbers';

import { getLocale } from '../../lib/i18n';

/** The country a number typed without its code is read in, if the learner's languages name one. */
export function learnerCountry(): CountryCode | undefined {
  return countryOfLocale(getLocale()) ?? navigator.languages.map(countryOfLocale).find(Boolean);
}

/** The number in E.164, or null when it is not a valid one. */
export const readPhoneNumber = (typed: string): string | null => toE164(typed, learnerCountry());

/** The learner's country by name, in the app's language (Brazil, Brasil). */
export function countryName(country: CountryCode): string {
  return new Intl.DisplayNames([getLocale()], { type: 'region' }).of(country) ?? country;
}

/** A code as the learner may paste it ("123 456", "123-456"): its digits. */
export const codeDigits = (typed: string) => typed.replace(/\D/g, '');
