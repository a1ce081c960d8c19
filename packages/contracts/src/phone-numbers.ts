// Phone numbers, as identity stores them and the web app asks for them: E.164 (`+` and up to 15 digits),
// parsed and validated with libphonenumber-js (Google's metadata, kept small: "min"). A number typed without
// its country code is read in the country the learner's locale names (pt-BR: Brazil), and only there.
import { type CountryCode, getCountryCallingCode, parsePhoneNumberFromString } from 'libphonenumber-js/min';

export type { CountryCode };
/** A country's calling code, without its + (BR: 55). */
export { getCountryCallingCode };

/** Sending codes by SMS: at most `max` to one number per `windowSeconds`, whoever asks. */
export const SMS_CODES_PER_NUMBER = { max: 3, windowSeconds: 600 } as const;
/** And at most `dailyMax` to one number in a day, however they are spread. */
export const SMS_CODES_PER_NUMBER_DAILY = { max: 10, windowSeconds: 86_400 } as const;
/** A signed-in learner may have codes sent to at most `max` numbers without an account (numbers being added) a day. */
export const SMS_CODES_PER_ACCOUNT_DAILY = { max: 10, windowSeconds: 86_400 } as const;
/** How long the phone-number screens wait before offering to send another code. */
export const SMS_RESEND_SECONDS = 60;

/** The region of a locale such as pt-BR or en-US, when it names one. */
export function countryOfLocale(locale: string | undefined): CountryCode | undefined {
  const region = locale?.split(/[-_]/)[1]?.toUpperCase();
  return region && /^[A-Z]{2}$/.test(region) ? (region as CountryCode) : undefined;
}

/**
 * The number in E.164, or null when it is not a valid number: with a leading + (or 00) in any country, without
 * one in `defaultCountry`.
 */
export function toE164(input: string, defaultCountry?: CountryCode): string | null {
  const typed = input.trim().replace(/^00/, '+');
  if (!/^\+?[\d\s().\-/]{4,32}$/.test(typed)) return null;
  const parsed = parsePhoneNumberFromString(typed, defaultCountry);
  return parsed?.isValid() ? parsed.number : null;
}

/** A stored E.164 number as people write it internationally (+55 11 91234 5678). */
export function formatPhoneNumber(e164: string): string {
  return parsePhoneNumberFromString(e164)?.formatInternational() ?? e164;
}
