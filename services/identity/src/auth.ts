// better-auth, configured for Engram and served behind the gateway at PUBLIC_BASE_URL/api/auth: email and
// password with verified addresses, usernames, magic links, emailed codes, password reset, email change,
// phone numbers verified by SMS (where texts can be sent), account deletion, sessions in PostgreSQL with Redis in front, two-factor (authenticator app, emailed
// code, backup codes, trusted devices), passkeys, API keys, several accounts on one device, social and
// generic OAuth providers and captcha when configured, and the admin plugin. Links in mails point at the
// public /api/auth endpoints, which redirect to the web routes the client named (callbackURL, redirectTo).

import { apiKey } from '@better-auth/api-key';
import { passkey } from '@better-auth/passkey';
import {
  BAN_WITHOUT_REASON,
  BANNED_USER_MESSAGE,
  EMAIL_LINK_EXPIRES_IN_SECONDS,
  MAGIC_LINK_EXPIRES_IN_SECONDS,
  OTP_ALLOWED_ATTEMPTS,
  OTP_EXPIRES_IN_SECONDS,
  OTP_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  SESSION_FRESH_AGE_SECONDS,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
} from '@engram/contracts/auth';
import {
  API_KEY_DEFAULT_PREFIX,
  API_KEY_DEFAULT_SCOPES,
  API_KEY_HEADER,
  API_KEY_LIMITS,
  API_KEY_PERMISSIONS_RESOURCE,
  BACKUP_CODE_COUNT,
  type PublicAuthConfig,
  SOCIAL_PROVIDERS,
  TRUSTED_DEVICE_DAYS,
  TWO_FACTOR_ISSUER,
} from '@engram/contracts/auth-features';
import type { Logger } from '@engram/kit/logger';
import type { Mailer } from '@engram/kit/mail/mailer';
import type { SmsSender } from '@engram/kit/sms/sender';
import { type BetterAuthOptions, betterAuth } from 'better-auth';
import { prismaAdapter } from 'better-auth/adapters/prisma';
import { admin, emailOTP, haveIBeenPwned, magicLink, multiSession, twoFactor, username } from 'better-auth/plugins';
import { defaultRoles } from 'better-auth/plugins/admin/access';
import { adminOnSignUp } from './auth/admin-emails.js';
import { apiKeyScopes } from './auth/api-key-scopes.js';
import { keepSessionsOfBannedUsers, unbannedSessionsRefreshed } from './auth/banned-sessions.js';
import { bannedUsersConfined } from './auth/banned-users-confined.js';
import { freshSessions } from './auth/fresh-sessions.js';
import { type GravatarSettings, gravatar } from './auth/gravatar.js';
import { mailSenders } from './auth/mail-senders.js';
import { organizationRules, organizations } from './auth/organizations.js';
import { type PasswordGuessing, passwordGuessing } from './auth/password-guessing.js';
import { PHONE_PASSWORD_RESET_PATHS, phoneNumbers } from './auth/phone-numbers.js';
import { profileRules } from './auth/profile-rules.js';
import { publicConfig } from './auth/public-config.js';
import { NO_SIGN_IN_METHODS, signInMethodPlugins, socialProvidersOf } from './auth/sign-in-methods.js';
import type { SignInMethods } from './auth/sign-in-methods-config.js';
import type { Db } from './db.js';
import type { SecondaryStorage } from './secondary-storage.js';

export const AUTH_BASE_PATH = '/api/auth';

export interface AuthSettings {
  secret: string;
  publicBaseUrl: string;
  /** Origins besides the public base URL that may call the auth API (the Vite dev server in development). */
  extraTrustedOrigins?: string[];
  checkPwnedPasswords: boolean;
  /** Shared session cache and rate-limit counters; without it, each process keeps its own in memory. */
  secondaryStorage?: SecondaryStorage;
  /**
   * Requests per client address and window; signing in or up and asking for a mailed link or code have
   * their own, stricter maximum.
   */
  rateLimit: { windowSeconds: number; max: number; signInMax: number };
  /** Wrong passwords counted per account in Redis, whatever the address: after a threshold, sign-ins wait. */
  passwordGuessing: PasswordGuessing;
  /** Verification, sign-in, reset and email-change mails go through it. */
  mailer: Mailer;
  /** Codes to phone numbers go through it; none (production without SNS): phone numbers are off. */
  sms?: SmsSender | null;
  /** Addresses that become admins when they sign up (ADMIN_EMAILS). */
  adminEmails?: readonly string[];
  /** better-auth's own messages go to the service's JSON log. */
  logger?: Logger;
  /** Social and generic OAuth providers and captcha, each off unless configured. */
  signInMethods?: SignInMethods;
  /** Where the signed-in user's Gravatar is fetched from (GET /api/auth/gravatar); none: initials only. */
  gravatar?: GravatarSettings;
}

/**
 * What a banned user is told (docs/product.md#states-and-transitions), on signing in and on every API call (the
 * gateway too).
 */
export { BANNED_USER_MESSAGE };
/** How many accounts one browser may keep signed in at once (multi-session). */
export const MAX_DEVICE_SESSIONS = 5;
/** How long an admin's impersonation of a user lasts. */
const IMPERSONATION_SECONDS = 60 * 60;

/** What GET /api/auth/public-config answers for these settings. */
export function publicAuthConfigOf(methods: SignInMethods, phoneNumber: boolean): PublicAuthConfig {
  return {
    socialProviders: SOCIAL_PROVIDERS.filter((provider) => methods.socialProviders[provider]),
    genericOAuthProviders: methods.genericOAuth.map(({ providerId, name }) => ({ providerId, name })),
    captcha: methods.captcha && {
      provider: methods.captcha.provider,
      siteKey: methods.captcha.siteKey,
      enterprise: false,
      recaptchaNet: false,
    },
    passkey: true,
    apiKey: true,
    multiSession: true,
    twoFactor: ['totp', 'otp'],
    magicLink: true,
    emailOTP: true,
    username: true,
    phoneNumber,
  };
}

type MailSenders = ReturnType<typeof mailSenders>;

/** The limit on signing in or up and on asking for a mailed link or code, per client address and window. */
function signInLimitOf(settings: AuthSettings) {
  return { window: settings.rateLimit.windowSeconds, max: settings.rateLimit.signInMax };
}

function emailAndPasswordOptions(send: MailSenders) {
  return {
    enabled: true,
    minPasswordLength: PASSWORD_MIN_LENGTH,
    maxPasswordLength: PASSWORD_MAX_LENGTH,
    requireEmailVerification: true,
    sendResetPassword: send.resetPassword,
    resetPasswordTokenExpiresIn: EMAIL_LINK_EXPIRES_IN_SECONDS,
    revokeSessionsOnPasswordReset: true,
  } satisfies BetterAuthOptions['emailAndPassword'];
}

function emailVerificationOptions(send: MailSenders) {
  return {
    sendOnSignUp: true,
    autoSignInAfterVerification: true,
    sendVerificationEmail: send.verificationEmail,
    expiresIn: EMAIL_LINK_EXPIRES_IN_SECONDS,
  } satisfies BetterAuthOptions['emailVerification'];
}

/** better-auth limits only in production by default; Engram limits in every mode, with its own numbers. */
function rateLimitOptions(settings: AuthSettings) {
  const strict = signInLimitOf(settings);
  return {
    enabled: true,
    storage: settings.secondaryStorage ? 'secondary-storage' : 'memory',
    window: settings.rateLimit.windowSeconds,
    max: settings.rateLimit.max,
    // Two-factor codes have better-auth's own 3 per 10 s; Engram words it with the sign-in limit.
    // Codes by SMS too, per address; phone-numbers.ts limits them per number as well.
    customRules: Object.fromEntries(
      ['/sign-in/*', '/sign-up/*', '/two-factor/*', '/phone-number/*'].map((path) => [path, strict]),
    ),
  } satisfies BetterAuthOptions['rateLimit'];
}

function advancedOptions() {
  return {
    // better-auth turns its origin and CSRF checks off by itself when NODE_ENV=test or TEST is set;
    // they must not depend on the environment a process happens to run in.
    disableOriginCheck: false,
    disableCSRFCheck: false,
    database: { generateId: () => crypto.randomUUID() },
    // Requests arrive through the gateway, which overwrites X-Forwarded-For with the one address it
    // vouches for (its TRUSTED_PROXIES decide what it believes); only the gateway can reach this port.
    ipAddress: { ipAddressHeaders: ['x-forwarded-for'] },
  } satisfies BetterAuthOptions['advanced'];
}

/** better-auth's own messages, in the service's JSON log. */
function betterAuthLogger(logger: Logger) {
  return {
    log: (level: 'debug' | 'info' | 'warn' | 'error', message: string, ...args: unknown[]) =>
      logger[level]({ source: 'better-auth', ...(args.length > 0 && { details: args }) }, message),
  };
}

function pluginsOf(db: Db, settings: AuthSettings, send: MailSenders, methods: SignInMethods) {
  const strict = signInLimitOf(settings);
  return [
    adminPlugin(),
    username({ minUsernameLength: USERNAME_MIN_LENGTH, maxUsernameLength: USERNAME_MAX_LENGTH }),
    magicLink({
      sendMagicLink: send.magicLink,
      expiresIn: MAGIC_LINK_EXPIRES_IN_SECONDS,
      storeToken: 'hashed',
      rateLimit: strict,
    }),
    emailOTP({
      sendVerificationOTP: send.emailOtp,
      otpLength: OTP_LENGTH,
      expiresIn: OTP_EXPIRES_IN_SECONDS,
      allowedAttempts: OTP_ALLOWED_ATTEMPTS,
      storeOTP: 'hashed',
      rateLimit: strict,
    }),
    twoFactorPlugin(send),
    passkeyPlugin(settings),
    apiKeyPlugin(),
    apiKeyScopes(),
    unbannedSessionsRefreshed(db, settings.secondaryStorage),
    bannedUsersConfined(db, BANNED_USER_MESSAGE),
    multiSession({ maximumSessions: MAX_DEVICE_SESSIONS }),
    organizations(settings.publicBaseUrl, send, async (organizationId, role) => {
      const custom = await db.organizationRole.findUnique({ where: { organizationId_role: { organizationId, role } } });
      return custom ? (custom.label ?? custom.role) : null;
    }),
    organizationRules(),
    ...signInMethodPlugins(methods),
    ...(settings.sms
      ? phoneNumbers(db, {
          sms: settings.sms,
          redis: settings.passwordGuessing.redis,
          keyPrefix: settings.passwordGuessing.keyPrefix,
          publicBaseUrl: settings.publicBaseUrl,
          logger: settings.logger,
        })
      : []),
    publicConfig(publicAuthConfigOf(methods, Boolean(settings.sms))),
    gravatar(settings.gravatar ?? { baseUrl: null, timeoutMs: 0 }),
    freshSessions(),
    passwordGuessing(db, settings.passwordGuessing, (to, locale) =>
      send.passwordGuessing(to, locale, new URL('/auth/forgot-password', settings.publicBaseUrl).href),
    ),
    profileRules(),
    ...(settings.checkPwnedPasswords ? [haveIBeenPwned()] : []),
  ] satisfies BetterAuthOptions['plugins'];
}

function adminPlugin() {
  return admin({
    // Named outright, so a role outside them is refused (better-auth accepts any string otherwise).
    roles: defaultRoles,
    bannedUserMessage: BANNED_USER_MESSAGE,
    defaultBanReason: BAN_WITHOUT_REASON,
    impersonationSessionDuration: IMPERSONATION_SECONDS,
  });
}

/** Two factors: an authenticator app, a code by email, backup codes, and devices trusted for a while. */
function twoFactorPlugin(send: MailSenders) {
  return twoFactor({
    issuer: TWO_FACTOR_ISSUER,
    totpOptions: { digits: OTP_LENGTH },
    otpOptions: {
      sendOTP: send.twoFactorCode,
      digits: OTP_LENGTH,
      period: OTP_EXPIRES_IN_SECONDS / 60,
      allowedAttempts: OTP_ALLOWED_ATTEMPTS,
      storeOTP: 'hashed',
    },
    backupCodeOptions: { amount: BACKUP_CODE_COUNT, storeBackupCodes: 'encrypted' },
    trustDeviceMaxAge: TRUSTED_DEVICE_DAYS * 24 * 60 * 60,
  });
}

/**
 * The relying party is the app's host; the ceremony may also run on a trusted origin of that host (the Vite
 * dev server on another port).
 */
function passkeyPlugin(settings: AuthSettings) {
  const publicOrigin = new URL(settings.publicBaseUrl);
  return passkey({
    rpID: publicOrigin.hostname,
    rpName: 'Engram',
    origin: [publicOrigin.origin, ...(settings.extraTrustedOrigins ?? [])],
  });
}

function apiKeyPlugin() {
  return apiKey({
    apiKeyHeaders: API_KEY_HEADER,
    defaultPrefix: API_KEY_DEFAULT_PREFIX,
    minimumNameLength: API_KEY_LIMITS.nameMinLength,
    maximumNameLength: API_KEY_LIMITS.nameMaxLength,
    minimumPrefixLength: API_KEY_LIMITS.prefixMinLength,
    maximumPrefixLength: API_KEY_LIMITS.prefixMaxLength,
    enableMetadata: true,
    keyExpiration: {
      minExpiresIn: API_KEY_LIMITS.expiresInMinDays,
      maxExpiresIn: API_KEY_LIMITS.expiresInMaxDays,
    },
    rateLimit: {
      enabled: true,
      maxRequests: API_KEY_LIMITS.rateLimitMax,
      timeWindow: API_KEY_LIMITS.rateLimitWindowMs,
    },
    // Scopes (auth/api-key-scopes.ts): what a new key may do until its owner changes it.
    permissions: { defaultPermissions: { [API_KEY_PERMISSIONS_RESOURCE]: [...API_KEY_DEFAULT_SCOPES] } },
  });
}

export function createAuth(db: Db, settings: AuthSettings) {
  const send = mailSenders(settings.mailer);
  const methods = settings.signInMethods ?? NO_SIGN_IN_METHODS;
  return betterAuth({
    appName: 'Engram',
    baseURL: settings.publicBaseUrl,
    basePath: AUTH_BASE_PATH,
    secret: settings.secret,
    trustedOrigins: [settings.publicBaseUrl, ...(settings.extraTrustedOrigins ?? [])],
    // Without the adapter's transactions: better-auth would hold one (and a pooled connection) open through
    // the whole sign-up, password hashing included; a burst of 40 sign-ups on a busy two-core machine then
    // answered some with 500. The user events do not need it: a trigger writes each in its row's statement.
    database: prismaAdapter(db, { provider: 'postgresql' }),
    emailAndPassword: emailAndPasswordOptions(send),
    socialProviders: socialProvidersOf(methods),
    emailVerification: emailVerificationOptions(send),
    user: {
      // onboardedAt is set only by the server (CompleteOnboarding), never by a sign-up or update-user body.
      additionalFields: { onboardedAt: { type: 'date', required: false, input: false } },
      changeEmail: { enabled: true, sendChangeEmailConfirmation: send.changeEmailConfirmation },
      // With the password, or without it from a fresh session (fresh-sessions.ts words the refusal).
      deleteUser: { enabled: true },
    },
    session: { freshAge: SESSION_FRESH_AGE_SECONDS, storeSessionInDatabase: true },
    ...(settings.secondaryStorage && { secondaryStorage: settings.secondaryStorage }),
    databaseHooks: {
      ...adminOnSignUp(settings.adminEmails ?? []),
      session: keepSessionsOfBannedUsers(db, settings.secondaryStorage),
    },
    rateLimit: rateLimitOptions(settings),
    advanced: advancedOptions(),
    telemetry: { enabled: false },
    disabledPaths: PHONE_PASSWORD_RESET_PATHS,
    // Errors that are not better-auth's own answers reach the HTTP server, which tells a brief outage of
    // the database or Redis (503, try again) from a bug (500); better-auth would answer 500 to both.
    onAPIError: { throw: true },
    ...(settings.logger && { logger: betterAuthLogger(settings.logger) }),
    plugins: pluginsOf(db, settings, send, methods),
  });
}

export type Auth = ReturnType<typeof createAuth>;
