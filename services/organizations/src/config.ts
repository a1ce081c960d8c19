// The organizations service's configuration: the only place it reads process.env.
import { loadConfig, vars } from '@engram/kit/config';
import { eventVars } from '@engram/kit/events/setup';
import { serviceVars } from '@engram/kit/service';

export const configShape = {
  ...serviceVars({ grpc: 50052, metrics: 9462 }),
  DATABASE_URL: vars.url(['postgresql', 'postgres']),
  ...eventVars,
  /** Identity: the truth of membership and permissions, asked on each call for the caller. */
  IDENTITY_ADDR: vars.address,
  /** Cards: the publisher's cards under a tag, read on their behalf when a deck is published or synced. */
  CARDS_ADDR: vars.address,
};

export type Config = ReturnType<typeof readConfig>;

export function readConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfig('organizations', configShape, env);
}
