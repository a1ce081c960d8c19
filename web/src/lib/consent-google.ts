// The cookie banner's category for Google One Tap, where Google sign-in is configured (consent.ts loads it then): its
// own module, so the pages of installations without Google sign-in do not carry its texts.
import { type Locale, m } from './i18n';

export const GOOGLE_CATEGORY = { services: { 'google-one-tap': { label: 'Google One Tap' } } };

/** The preferences' section of the category, in `locale`. */
export const googleSection = (locale: Locale, category: string) => ({
  title: m.consent_google_title({}, { locale }),
  description: m.consent_google_text({}, { locale }),
  linkedCategory: category,
});
