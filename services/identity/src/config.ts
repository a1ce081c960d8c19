// The identity service's configuration: the only place it reads process.env.
import { ConfigError, loadConfig, publicBaseUrlOf, vars } from '@engram/kit/config';
import { eventVars } from '@engram/kit/events/setup';
import { mailSettingsOf, mailVars } from '@engram/kit/mail/config';
import { serviceVars } from '@engram/kit/service';
import { smsRouteOf, smsVars } from '@engram/kit/sms/config';
import { z } from 'zod';
import { captchaVars, genericOAuthVars, signInMethodsOf, socialProviderVars } from './auth/sign-in-methods-config.js';

export const configShape = {
  ...serviceVars({ grpc: 50051, metrics: 9461 }),
  DATABASE_URL: vars.url(['postgresql', 'postgres']),
  /** identity publishes its user events (written by triggers into its outbox). */
  ...eventVars,
  BETTER_AUTH_SECRET: z.string().min(32, 'must be at least 32 characters'),
  /** The app's own origin; required in production (publicBaseUrlOf). */
  PUBLIC_BASE_URL: vars.url(['http', 'https']).optional(),
  /** Comma-separated origins besides PUBLIC_BASE_URL allowed to call the auth API (e.g. the Vite dev server). */
  AUTH_TRUSTED_ORIGINS: vars.list.optional(),
  REDIS_URL: vars.url(['redis', 'rediss']),
  /** Prepended to every Redis key, so installations (and test runs) sharing one Redis never collide. */
  REDIS_KEY_PREFIX: z.string().default('engram:'),
  /** better-auth's rate limits (on in every mode, counted in Redis): requests per address and window. */
  AUTH_RATE_LIMIT_WINDOW_SECONDS: vars.positiveInt(10),
  AUTH_RATE_LIMIT_MAX: vars.positiveInt(100),
  /** Sign-in and sign-up attempts, and mailed links and codes, per address and window (better-auth's stricter default: 3). */
  AUTH_RATE_LIMIT_SIGN_IN_MAX: vars.positiveInt(3),
  /** Wrong passwords for one account (from any address) before its password sign-ins wait. */
  AUTH_PASSWORD_GUESS_THRESHOLD: vars.positiveInt(10),
  /** How long a wrong password counts after the last one. */
  AUTH_PASSWORD_GUESS_WINDOW_SECONDS: vars.positiveInt(900),
  /** The first wait, doubled by each further wrong password, and the longest. */
  AUTH_PASSWORD_GUESS_DELAY_SECONDS: vars.positiveInt(30),
  AUTH_PASSWORD_GUESS_MAX_DELAY_SECONDS: vars.positiveInt(900),
  HTTP_PORT: vars.port(3001),
  /** Checks new passwords against the Have I Been Pwned range API (needs outside network). */
  AUTH_CHECK_PWNED_PASSWORDS: vars.bool.default(false),
  /** Comma-separated addresses that get the admin role when they sign up (compared case-insensitively). */
  ADMIN_EMAILS: vars.list
    .refine((emails) => emails.every((email) => z.email().safeParse(email).success), 'must list email addresses')
    .transform((emails) => emails.map((email) => email.toLowerCase()))
    .default([]),
  /** The signed-in user's Gravatar is fetched from here and served from Engram's origin; `off`: initials only. */
  GRAVATAR_URL: z.union([z.literal('off'), vars.url(['https', 'http'])]).default('https://gravatar.com/avatar'),
  /** How long Gravatar may take before an avatar shows initials instead. */
  GRAVATAR_TIMEOUT_MS: vars.positiveInt(3000),
  /** Mail: SES when SES_REGION is set (required in production), the dev mailbox otherwise. */
  ...mailVars,
  /** Text messages (codes to phone numbers): SNS when SNS_REGION is set, the dev mailbox outside production, else phone numbers are off. */
  ...smsVars,
  /** `<PROVIDER>_CLIENT_ID` and `<PROVIDER>_CLIENT_SECRET` for each social provider of SOCIAL_PROVIDERS. */
  ...socialProviderVars,
  /** OAUTH_PROVIDERS: generic OAuth/OIDC providers (JSON). */
  ...genericOAuthVars,
  /** CAPTCHA_PROVIDER, CAPTCHA_SECRET_KEY, CAPTCHA_SITE_KEY (and the verify URL): off unless set. */
  ...captchaVars,
};

export type Config = ReturnType<typeof readConfig>;

export function readConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfig('identity', configShape, env, (config) => {
    // Both rules are checked, so one message names every problem.
    const problems: string[] = [];
    const checked = <T>(rule: () => T): T | undefined => {
      try {
        return rule();
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        problems.push(...error.problems);
        return undefined;
      }
    };
    const publicBaseUrl = checked(() => publicBaseUrlOf('identity', config, env));
    const ses = checked(() => mailSettingsOf('identity', config));
    const sms = checked(() => smsRouteOf('identity', config));
    const signInMethods = checked(() => signInMethodsOf(config));
    if (problems.length > 0 || publicBaseUrl === undefined || signInMethods === undefined || sms === undefined)
      throw new ConfigError('identity', problems);
    return { ...config, PUBLIC_BASE_URL: publicBaseUrl, ses: ses ?? null, sms, signInMethods };
  });
}
