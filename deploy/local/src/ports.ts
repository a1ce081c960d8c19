// Free TCP ports on loopback, for stacks started by tests next to a running `npm start`.
import { createServer } from 'node:net';
import type { Ports } from './components.ts';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export async function freePorts(): Promise<Ports> {
  const next = freePort;
  return {
    gateway: await next(),
    gatewayMetrics: await next(),
    identityHttp: await next(),
    billingHttp: await next(),
    grpc: {
      identity: await next(),
      organizations: await next(),
      cards: await next(),
      billing: await next(),
      ai: await next(),
    },
    metrics: {
      identity: await next(),
      organizations: await next(),
      cards: await next(),
      billing: await next(),
      ai: await next(),
    },
  };
}
