// The billing service's configuration: the only place it reads process.env.
import { commonVars, loadConfig, vars } from '@engram/kit/config';
import { z } from 'zod';

export const configShape = {
  ...commonVars,
  INTERNAL_TOKEN_PUBLIC_KEYS: z.string().min(1),
  GRPC_PORT: vars.port(50054),
  METRICS_PORT: vars.port(9464),
  HTTP_PORT: vars.port(3004),
};

export function readConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfig('billing', configShape, env);
}
