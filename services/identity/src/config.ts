// The identity service's configuration: the only place it reads process.env.
import { loadConfig, publicBaseUrlOf, vars } from '@engram/kit/config';
import { serviceVars } from '@engram/kit/service';
import { z } from 'zod';

export const configShape = {
  ...serviceVars({ grpc: 50051, metrics: 9461 }),
  DATABASE_URL: vars.url(['postgresql', 'postgres']),
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
  /** Sign-in and sign-up attempts per address and window (better-auth's stricter default: 3). */
  AUTH_RATE_LIMIT_SIGN_IN_MAX: vars.positiveInt(3),
  HTTP_PORT: vars.port(3001),
  /** Checks new passwords against the Have I Been Pwned range API (needs outside network). */
  AUTH_CHECK_PWNED_PASSWORDS: vars.bool.default(false),
};

export type Config = ReturnType<typeof readConfig>;

export function readConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfig('identity', configShape, env, (config) => ({
    ...config,
    PUBLIC_BASE_URL: publicBaseUrlOf('identity', config, env),
  }));
}
