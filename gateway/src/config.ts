// The gateway's configuration: the only place it reads process.env.
import { fileURLToPath } from 'node:url';
import { commonVars, loadConfig, vars } from '@engram/kit/config';
import { z } from 'zod';

export const configShape = {
  ...commonVars,
  PORT: vars.port(3000),
  METRICS_PORT: vars.port(9460),
  PUBLIC_BASE_URL: vars.url(['http', 'https']).default('http://localhost:3000'),
  INTERNAL_TOKEN_PRIVATE_KEY: z.string().min(1),
  IDENTITY_HTTP_URL: vars.url(['http', 'https']),
  BILLING_HTTP_URL: vars.url(['http', 'https']),
  IDENTITY_ADDR: vars.address,
  CARDS_ADDR: vars.address,
  /** The built web app; the gateway serves it with an SPA fallback. */
  WEB_DIST_DIR: z.string().default(fileURLToPath(new URL('../../web/dist', import.meta.url))),
};

export type Config = ReturnType<typeof readConfig>;

export function readConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfig('gateway', configShape, env);
}
