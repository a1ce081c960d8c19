// better-auth, configured for Engram and served behind the gateway at PUBLIC_BASE_URL/api/auth: email and
// password with verified addresses, usernames, magic links, emailed codes, password reset, email change,
// account deletion, sessions in PostgreSQL with Redis in front, and the admin and two-factor plugins
// (two-factor's flows come later; its fields and table exist now). Links in mails point at the public
// /api/auth endpoints, which redirect to the web routes the client named (callbackURL, redirectTo).
import {
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
import type { Logger } from '@engram/kit/logger';
import type { Mailer } from '@engram/kit/mail/mailer';
import { betterAuth } from 'better-auth';
import { prismaAdapter } from 'better-auth/adapters/prisma';
import { admin, emailOTP, haveIBeenPwned, magicLink, twoFactor, username } from 'better-auth/plugins';
import { adminOnSignUp } from './auth/admin-emails.js';
import { freshSessions } from './auth/fresh-sessions.js';
import { mailSenders } from './auth/mail-senders.js';
import { profileRules } from './auth/profile-rules.js';
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
  /** Verification, sign-in, reset and email-change mails go through it. */
  mailer: Mailer;
  /** Addresses that become admins when they sign up (ADMIN_EMAILS). */
  adminEmails?: readonly string[];
  /** better-auth's own messages go to the service's JSON log. */
  logger?: Logger;
}

export function createAuth(db: Db, settings: AuthSettings) {
  const send = mailSenders(settings.mailer);
  const strict = { window: settings.rateLimit.windowSeconds, max: settings.rateLimit.signInMax };
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
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      requireEmailVerification: true,
      sendResetPassword: send.resetPassword,
      resetPasswordTokenExpiresIn: EMAIL_LINK_EXPIRES_IN_SECONDS,
      revokeSessionsOnPasswordReset: true,
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      sendVerificationEmail: send.verificationEmail,
      expiresIn: EMAIL_LINK_EXPIRES_IN_SECONDS,
    },
    user: {
      // onboardedAt is set only by the server (CompleteOnboarding), never by a sign-up or update-user body.
      additionalFields: { onboardedAt: { type: 'date', required: false, input: false } },
      changeEmail: { enabled: true, sendChangeEmailConfirmation: send.changeEmailConfirmation },
      // With the password, or without it from a fresh session (fresh-sessions.ts words the refusal).
      deleteUser: { enabled: true },
    },
    session: { freshAge: SESSION_FRESH_AGE_SECONDS, storeSessionInDatabase: true },
    ...(settings.secondaryStorage && { secondaryStorage: settings.secondaryStorage }),
    databaseHooks: adminOnSignUp(settings.adminEmails ?? []),
    // better-auth limits only in production by default; Engram limits in every mode, with its own numbers.
    rateLimit: {
      enabled: true,
      storage: settings.secondaryStorage ? 'secondary-storage' : 'memory',
      window: settings.rateLimit.windowSeconds,
      max: settings.rateLimit.max,
      customRules: Object.fromEntries(['/sign-in/*', '/sign-up/*'].map((path) => [path, strict])),
    },
    advanced: {
      // better-auth turns its origin and CSRF checks off by itself when NODE_ENV=test or TEST is set;
      // they must not depend on the environment a process happens to run in.
      disableOriginCheck: false,
      disableCSRFCheck: false,
      database: { generateId: () => crypto.randomUUID() },
      // Requests arrive through the gateway, which overwrites X-Forwarded-For with the one address it
      // vouches for (its TRUSTED_PROXIES decide what it believes); only the gateway can reach this port.
      ipAddress: { ipAddressHeaders: ['x-forwarded-for'] },
    },
    telemetry: { enabled: false },
    ...(settings.logger && {
      logger: {
        log: (level: 'debug' | 'info' | 'warn' | 'error', message: string, ...args: unknown[]) =>
          settings.logger?.[level]({ source: 'better-auth', ...(args.length > 0 && { details: args }) }, message),
      },
    }),
    plugins: [
      admin(),
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
      twoFactor({ issuer: 'Engram', otpOptions: { sendOTP: send.twoFactorCode } }),
      freshSessions(),
      profileRules(),
      ...(settings.checkPwnedPasswords ? [haveIBeenPwned()] : []),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;
