// The account layer's limits and messages (docs/product.md#validation-rules, #constants-and-limits), shared by
// the web app's forms and identity's configuration.

/** Minimum password length. */
export const PASSWORD_MIN_LENGTH = 8;
/** better-auth's default maximum; longer passwords only cost hashing time. */
export const PASSWORD_MAX_LENGTH = 128;
/** Name and username at most 32 characters. */
export const NAME_MAX_LENGTH = 32;
export const USERNAME_MAX_LENGTH = 32;
/** Organization name at most 32, slug at most 48. */
export const ORGANIZATION_NAME_MAX_LENGTH = 32;
export const ORGANIZATION_SLUG_MAX_LENGTH = 48;
/** One-time codes are 6 digits. */
export const OTP_LENGTH = 6;
/** Session freshness for sensitive actions, in seconds (docs/product.md#states-and-transitions). */
export const SESSION_FRESH_AGE_SECONDS = 86_400;

/** better-auth's default shortest username. */
export const USERNAME_MIN_LENGTH = 3;
/** Emailed one-time codes (email OTP): how long one stays valid, and how many wrong guesses it survives. */
export const OTP_EXPIRES_IN_SECONDS = 300;
export const OTP_ALLOWED_ATTEMPTS = 3;
/** How long an emailed sign-in link stays valid (it works once). */
export const MAGIC_LINK_EXPIRES_IN_SECONDS = 300;
/** How long the links of verification, email-change and password-reset mails stay valid. */
export const EMAIL_LINK_EXPIRES_IN_SECONDS = 3_600;
/** What a sensitive action answers when the session is older than SESSION_FRESH_AGE_SECONDS. */
export const SESSION_NOT_FRESH_MESSAGE = 'Your session is not fresh. Please sign in again.';
/**
 * A banned user's refusal (docs/product.md#states-and-transitions), by identity (the admin plugin, and every auth
 * endpoint but reading the session and signing out) and by the gateway (every tRPC call, with the code as the
 * error's reason); the web app sends the user to /suspended on it.
 */
export const BANNED_USER_CODE = 'BANNED_USER';
export const BANNED_USER_MESSAGE = 'You have been banned from this application';
/** What identity stores as the reason of a ban the administrator gave none for; screens show no reason then. */
export const BAN_WITHOUT_REASON = 'No reason';
/** The reason an administrator gave for a ban, if they gave one. */
export const banReasonOf = (stored: string | null | undefined): string | undefined =>
  stored && stored !== BAN_WITHOUT_REASON ? stored : undefined;
/** The error better-auth's reset-password link redirects with (`?error=INVALID_TOKEN`), and its code. */
export const INVALID_TOKEN = 'INVALID_TOKEN';

/** better-auth's session cookie (`<token>.<signature>`); on https it carries the `__Secure-` prefix. */
export const SESSION_COOKIE_NAME = 'better-auth.session_token';
/**
 * The Redis channel (after REDIS_KEY_PREFIX) on which identity announces each session it ended, by token,
 * so every gateway replica forgets that session at once.
 */
export const SESSION_REVOKED_CHANNEL = 'identity:session-revoked';
/** What changing the email to the address the account already has answers. */
export const EMAIL_IS_THE_SAME_MESSAGE = 'Email is the same.';
