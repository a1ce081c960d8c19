// The organizations service's configuration: the only place it reads process.env.
import { commonVars, loadConfig, vars } from '@engram/kit/config';
import { z } from 'zod';

export const configShape = {
  ...commonVars,
  INTERNAL_TOKEN_PUBLIC_KEYS: z.string().min(1),
  GRPC_PORT: vars.port(50052),
  METRICS_PORT: vars.port(9462),
  IDENTITY_ADDR: vars.address,
};

export function readConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfig('organizations', configShape, env);
}
