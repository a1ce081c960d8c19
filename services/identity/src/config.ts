// The identity service's configuration: the only place it reads process.env.
import { loadConfig, vars } from '@engram/kit/config';
import { serviceVars } from '@engram/kit/service';
import { z } from 'zod';

export const configShape = {
  ...serviceVars({ grpc: 50051, metrics: 9461 }),
  DATABASE_URL: vars.url(['postgresql', 'postgres']),
  BETTER_AUTH_SECRET: z.string().min(32, 'must be at least 32 characters'),
  PUBLIC_BASE_URL: vars.url(['http', 'https']).default('http://localhost:3000'),
  /** Comma-separated origins besides PUBLIC_BASE_URL allowed to call the auth API (e.g. the Vite dev server). */
  AUTH_TRUSTED_ORIGINS: vars.list.optional(),
  REDIS_URL: vars.url(['redis', 'rediss']),
  HTTP_PORT: vars.port(3001),
  /** Checks new passwords against the Have I Been Pwned range API (needs outside network). */
  AUTH_CHECK_PWNED_PASSWORDS: vars.bool.default(false),
};

export type Config = ReturnType<typeof readConfig>;

export function readConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfig('identity', configShape, env);
}
