// better-auth, configured for Engram: email and password on Prisma, sessions stored in the database,
// served behind the gateway at PUBLIC_BASE_URL/api/auth.

import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, SESSION_FRESH_AGE_SECONDS } from '@engram/contracts/auth';
import type { Logger } from '@engram/kit/logger';
import { betterAuth } from 'better-auth';
import { prismaAdapter } from 'better-auth/adapters/prisma';
import { admin, haveIBeenPwned } from 'better-auth/plugins';
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
  /** Requests per client address and window; sign-in and sign-up have their own, stricter maximum. */
  rateLimit: { windowSeconds: number; max: number; signInMax: number };
  /** better-auth's own messages go to the service's JSON log. */
  logger?: Logger;
}

export function createAuth(db: Db, settings: AuthSettings) {
  return betterAuth({
    appName: 'Engram',
    baseURL: settings.publicBaseUrl,
    basePath: AUTH_BASE_PATH,
    secret: settings.secret,
    trustedOrigins: [settings.publicBaseUrl, ...(settings.extraTrustedOrigins ?? [])],
    database: prismaAdapter(db, { provider: 'postgresql' }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
    },
    // onboardedAt is set only by the server (CompleteOnboarding), never by a sign-up or update-user body.
    user: { additionalFields: { onboardedAt: { type: 'date', required: false, input: false } } },
    session: { freshAge: SESSION_FRESH_AGE_SECONDS, storeSessionInDatabase: true },
    ...(settings.secondaryStorage && { secondaryStorage: settings.secondaryStorage }),
    // better-auth limits only in production by default; Engram limits in every mode, with its own numbers.
    rateLimit: {
      enabled: true,
      storage: settings.secondaryStorage ? 'secondary-storage' : 'memory',
      window: settings.rateLimit.windowSeconds,
      max: settings.rateLimit.max,
      customRules: Object.fromEntries(
        ['/sign-in/*', '/sign-up/*'].map((path) => [
          path,
          { window: settings.rateLimit.windowSeconds, max: settings.rateLimit.signInMax },
        ]),
      ),
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
    plugins: [admin(), ...(settings.checkPwnedPasswords ? [haveIBeenPwned()] : [])],
  });
}

export type Auth = ReturnType<typeof createAuth>;
