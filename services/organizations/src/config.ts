// The organizations service's configuration: the only place it reads process.env.
import { loadConfig } from '@engram/kit/config';
import { serviceVars } from '@engram/kit/service';

export const configShape = {
  ...serviceVars({ grpc: 50052, metrics: 9462 }),
};

export function readConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfig('organizations', configShape, env);
}
