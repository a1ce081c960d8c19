// The ai service's configuration: the only place it reads process.env.
import { loadConfig } from '@engram/kit/config';
import { serviceVars } from '@engram/kit/service';

export const configShape = {
  ...serviceVars({ grpc: 50055, metrics: 9465 }),
};

export function readConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfig('ai', configShape, env);
}
