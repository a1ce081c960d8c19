// The billing service's configuration: the only place it reads process.env.
import { loadConfig, vars } from '@engram/kit/config';
import { serviceVars } from '@engram/kit/service';

export const configShape = {
  ...serviceVars({ grpc: 50054, metrics: 9464 }),
  HTTP_PORT: vars.port(3004),
};

export function readConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfig('billing', configShape, env);
}
