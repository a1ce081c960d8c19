// The account layer's limits (spec §5 and §9), shared by the web app's forms and identity's configuration.

/** Spec §9: minimum password length. */
export const PASSWORD_MIN_LENGTH = 8;
/** better-auth's default maximum; longer passwords only cost hashing time. */
export const PASSWORD_MAX_LENGTH = 128;
/** Spec §5: name and username at most 32 characters. */
export const NAME_MAX_LENGTH = 32;
export const USERNAME_MAX_LENGTH = 32;
/** Spec §5: organization name at most 32, slug at most 48. */
export const ORGANIZATION_NAME_MAX_LENGTH = 32;
export const ORGANIZATION_SLUG_MAX_LENGTH = 48;
/** Spec §9: one-time codes are 6 digits. */
export const OTP_LENGTH = 6;
/** Spec §9: session freshness for sensitive actions, in seconds. */
export const SESSION_FRESH_AGE_SECONDS = 86_400;
