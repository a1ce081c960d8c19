// The cards service's configuration: the only place it reads process.env.
import { loadConfig, vars } from '@engram/kit/config';
import { eventVars } from '@engram/kit/events/setup';
import { serviceVars } from '@engram/kit/service';

export const configShape = {
  ...serviceVars({ grpc: 50053, metrics: 9463 }),
  DATABASE_URL: vars.url(['postgresql', 'postgres']),
  /** How long a create call's idempotency key is remembered (a retry after that creates the cards again). */
  IDEMPOTENCY_RETENTION_HOURS: vars.positiveInt(24),
  ...eventVars,
};

export type Config = ReturnType<typeof readConfig>;

export function readConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfig('cards', configShape, env);
}
