// The whole stack as `npm start` runs it, from the built dist/main.js files: every service reports
// SERVING on the standard gRPC health check and ready on its metrics port, and every process stops
// cleanly (exit code 0) on SIGTERM.

import { type ComponentName, metricsPortOf } from '@engram/local/components';
import { startTestStack, type TestStack } from '@engram/testkit/stack';
import { type Client, credentials, makeGenericClientConstructor, type ServiceDefinition } from '@grpc/grpc-js';
import { service as healthService } from 'grpc-health-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SERVICES = ['identity', 'organizations', 'cards', 'billing', 'ai'] as const;
const COMPONENTS: ComponentName[] = [...SERVICES, 'gateway'];

const HealthClient = makeGenericClientConstructor(healthService as unknown as ServiceDefinition, 'Health');
type HealthCheck = (
  request: { service: string },
  options: { deadline: number },
  callback: (error: Error | null, response?: { status: string }) => void,
) => void;

/** The standard grpc.health.v1.Health/Check, as a Kubernetes `grpc:` probe sends it. */
async function grpcHealth(port: number, service = ''): Promise<string> {
  const client: Client = new HealthClient(`127.0.0.1:${port}`, credentials.createInsecure());
  try {
    const check = (client as unknown as { Check: HealthCheck }).Check.bind(client);
    return await new Promise((resolve, reject) =>
      check({ service }, { deadline: Date.now() + 5_000 }, (error, response) =>
        error ? reject(error) : resolve(response?.status ?? 'missing'),
      ),
    );
  } finally {
    client.close();
  }
}

async function readyz(port: number): Promise<number> {
  return (await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(5_000) })).status;
}

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack({ logLevel: 'info' });
});
afterAll(() => stack?.stop());

describe('a running stack', () => {
  it.each(SERVICES)('%s answers the gRPC health check SERVING on its gRPC port', async (name) => {
    expect(await grpcHealth(stack.settings.ports.grpc[name])).toBe('SERVING');
  });

  it('names each service SERVING under its own gRPC service name', async () => {
    const { grpc } = stack.settings.ports;
    expect(await grpcHealth(grpc.identity, 'engram.identity.v1.IdentityService')).toBe('SERVING');
    expect(await grpcHealth(grpc.cards, 'engram.cards.v1.CardsService')).toBe('SERVING');
  });

  it.each(COMPONENTS)('%s is ready on its metrics port', async (name) => {
    expect(await readyz(metricsPortOf(name, stack.settings.ports))).toBe(200);
  });
});

describe('shutdown', () => {
  // The gateway first, as `stop()` does, so nothing calls a service that has already gone.
  it.each(['gateway', ...SERVICES] as const)(
    '%s exits with code 0 on SIGTERM, after logging that it stopped',
    async (name) => {
      expect(await stack.stopComponent(name)).toBe(0);
      const messages = stack.logs.filter((l) => l.component === name).map((l) => l.entry?.msg);
      // Not in order: pino flushes its buffer synchronously at exit, ahead of a write still in flight.
      expect(messages).toEqual(expect.arrayContaining(['shutting down', 'stopped']));
      await expect(readyz(metricsPortOf(name, stack.settings.ports))).rejects.toThrow();
    },
    30_000,
  );
});
