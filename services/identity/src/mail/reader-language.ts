// The language an account's owner reads, for mails that answer no request of theirs (a password being
// guessed, a deck assigned to them): that of their last sign-in, kept in Redis by its normalised email.
import type { Redis } from 'ioredis';
import { type Locale, localeOf } from './locale.js';

/** How long the language of an account's last sign-in is kept for its mails. */
export const LANGUAGE_KEPT_SECONDS = 400 * 24 * 60 * 60;

/** `<prefix>identity:mail-language:<email>`. */
export const mailLanguageKey = (keyPrefix: string, email: string) =>
  `${keyPrefix}identity:mail-language:${email.trim().toLowerCase()}`;

/** The owner's language, English when none was kept. */
export async function readerLanguage(redis: Redis, keyPrefix: string, email: string): Promise<Locale> {
  return localeOf(await redis.get(mailLanguageKey(keyPrefix, email)));
}
