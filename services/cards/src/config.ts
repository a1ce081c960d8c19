// The cards service's configuration: the only place it reads process.env.
import { loadConfig, vars } from '@engram/kit/config';
import { eventVars } from '@engram/kit/events/setup';
import { serviceVars } from '@engram/kit/service';

export const configShape = {
  ...serviceVars({ grpc: 50053, metrics: 9463 }),
  DATABASE_URL: vars.url(['postgresql', 'postgres']),
  ...eventVars,
};

export type Config = ReturnType<typeof readConfig>;

export function readConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfig('cards', configShape, env);
}
