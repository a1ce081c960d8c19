// The cards service's configuration: the only place it reads process.env.
import { commonVars, loadConfig, vars } from '@engram/kit/config';
import { z } from 'zod';

export const configShape = {
  ...commonVars,
  DATABASE_URL: vars.url(['postgresql', 'postgres']),
  NATS_URL: vars.url(['nats']),
  INTERNAL_TOKEN_PUBLIC_KEYS: z.string().min(1),
  GRPC_PORT: vars.port(50053),
  METRICS_PORT: vars.port(9463),
  EVENTS_STREAM: z.string().default('ENGRAM'),
  EVENTS_SUBJECT_PREFIX: z.string().default(''),
};

export type Config = ReturnType<typeof readConfig>;

export function readConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfig('cards', configShape, env);
}
