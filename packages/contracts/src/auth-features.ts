// Which sign-in methods and account features an installation offers: the catalogue identity configures
// from its environment and the answer of GET /api/auth/public-config, from which the web app shows only
// the buttons and screens that work (docs/product.md#auth-views).
/** The social providers Engram can configure; each is on when `<PROVIDER>_CLIENT_ID` and `_CLIENT_SECRET` are set. */
export const SOCIAL_PROVIDERS = [
  'apple',
  'discord',
  'dropbox',
  'facebook',
  'github',
  'gitlab',
  'google',
  'huggingface',
  'kick',
  'linear',
  'linkedin',
  'microsoft',
  'notion',
  'reddit',
  'roblox',
  'slack',
  'spotify',
  'tiktok',
  'twitch',
  'vk',
  'twitter',
  'zoom',
] as const;
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number];

/** The captcha providers, named as better-auth-ui names them (CAPTCHA_PROVIDER takes these). */
export const CAPTCHA_PROVIDERS = [
  'google-recaptcha-v3',
  'google-recaptcha-v2-checkbox',
  'google-recaptcha-v2-invisible',
  'cloudflare-turnstile',
  'hcaptcha',
] as const;
export type CaptchaProvider = (typeof CAPTCHA_PROVIDERS)[number];

/**
 * The requests that carry a captcha token (header x-captcha-response, docs/product.md#calls): sign-up, sign-in (by
 * email, and by username, which the same form sends when the identifier is not an address) and the password reset
 * request (better-auth's `/request-password-reset`; better-auth-ui names it `/forget-password`).
 */
export const CAPTCHA_ENDPOINTS = [
  '/sign-up/email',
  '/sign-in/email',
  '/sign-in/username',
  '/request-password-reset',
  '/forget-password',
];
export const CAPTCHA_HEADER = 'x-captcha-response';

/** The header an API key travels in, to the tRPC API (gateway) and to better-auth. */
export const API_KEY_HEADER = 'x-api-key';

/** The bounds of an API key's fields (docs/product.md#validation-rules). */
export const API_KEY_LIMITS = {
  nameMinLength: 1,
  nameMaxLength: 32,
  prefixMinLength: 1,
  prefixMaxLength: 32,
  /** Expiry when one is chosen, in days (better-auth takes seconds in expiresIn). */
  expiresInMinDays: 1,
  expiresInMaxDays: 365,
  /** Every new key is limited to this many requests per window unless the server sets others. */
  rateLimitMax: 600,
  rateLimitWindowMs: 60_000,
} as const;
/** What a new key starts with; better-auth-ui shows the prefix. */
export const API_KEY_DEFAULT_PREFIX = 'engram_';

/**
 * What an API key may do (docs/product.md#calls): read (every query), write (every other call that changes the
 * learner's data), generate (card generation, which spends the plan's allowance). Anki tools need read and write.
 */
export const API_KEY_SCOPES = ['read', 'write', 'generate'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];
/** A new key's scopes until its owner changes them. */
export const API_KEY_DEFAULT_SCOPES: readonly ApiKeyScope[] = ['read', 'write'];
/** Where a key's scopes live in better-auth's permissions (`{engram: ["read", …]}`). */
export const API_KEY_PERMISSIONS_RESOURCE = 'engram';
/** The reason of a call refused for a scope its key lacks (403). */
export const API_KEY_SCOPE_MISSING = 'API_KEY_SCOPE_MISSING';

/** The scopes a key's better-auth permissions give; a key made before scopes existed (none stored) has them all. */
export function apiKeyScopesOf(permissions: unknown): ApiKeyScope[] {
  let parsed = permissions;
  if (typeof parsed === 'string') {
    try {
      parsed = JSON.parse(parsed);
    } catch {
      parsed = null;
    }
  }
  if (parsed === null || parsed === undefined) return [...API_KEY_SCOPES];
  const listed = (parsed as Record<string, unknown>)[API_KEY_PERMISSIONS_RESOURCE];
  return Array.isArray(listed) ? API_KEY_SCOPES.filter((scope) => listed.includes(scope)) : [];
}

/** The scope a tRPC call needs: generate for card generation, read for a query, write for anything else. */
export function scopeOfCall(path: string, type: 'query' | 'mutation' | 'subscription'): ApiKeyScope {
  if (path.startsWith('ai.')) return 'generate';
  return type === 'query' ? 'read' : 'write';
}

/** The two-factor settings: the authenticator's issuer, the resend countdown, trusted devices, backup codes. */
export const TWO_FACTOR_ISSUER = 'Engram';
export const TWO_FACTOR_OTP_RESEND_SECONDS = 60;
export const TRUSTED_DEVICE_DAYS = 30;
export const BACKUP_CODE_COUNT = 10;

/** identity's refusal when a text message (a code to a phone number) could not be sent: 503, try again later. */
export const SMS_NOT_SENT = 'SMS_NOT_SENT';

/** GET /api/auth/public-config: what the web app may offer (no secret is in it). */
export interface PublicAuthConfig {
  /** Configured social providers, in catalogue order. */
  socialProviders: SocialProvider[];
  /** Generic OAuth/OIDC providers (OAUTH_PROVIDERS), for `/sign-in/oauth2`. */
  genericOAuthProviders: { providerId: string; name: string }[];
  /** The captcha's provider and site key (enterprise and recaptchaNet are reCAPTCHA's variants). */
  captcha: { provider: CaptchaProvider; siteKey: string; enterprise: boolean; recaptchaNet: boolean } | null;
  passkey: boolean;
  apiKey: boolean;
  multiSession: boolean;
  twoFactor: ('totp' | 'otp')[];
  magicLink: boolean;
  emailOTP: boolean;
  username: boolean;
  /** Phone numbers (add one, verify it by SMS, sign in with it): on where texts can be sent. */
  phoneNumber: boolean;
}
