// How a process tells Kubernetes and Prometheus about itself: the standard gRPC health service (SERVING
// once started, NOT_SERVING as soon as shutdown begins, in-flight calls drained before closing) and the
// HTTP metrics port (/healthz, /readyz, /metrics).
import { unary } from '@engram/kit/grpc/client';
import { type HealthServer, startHealthServer } from '@engram/kit/health';
import { registry } from '@engram/kit/metrics';
import { answer, type GrpcFixture, SERVICE_NAME, startFixture } from '@engram/testkit/grpc-fixture';
import { credentials, makeGenericClientConstructor, type ServiceDefinition } from '@grpc/grpc-js';
import { service as healthService } from 'grpc-health-check';
import { Gauge } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';

const HealthClient = makeGenericClientConstructor(
  healthService as unknown as ServiceDefinition,
  'grpc.health.v1.Health',
);

/** Asks the standard health service of `port` about `service` ('' is the whole server). */
function healthOf(port: number, service: string): Promise<string> {
  const client = new HealthClient(`127.0.0.1:${port}`, credentials.createInsecure());
  return new Promise<string>((resolve, reject) => {
    const check = client.check as (
      req: object,
      opts: object,
      cb: (e: Error | null, res?: { status: string }) => void,
    ) => void;
    check.call(client, { service }, { deadline: Date.now() + 2_000 }, (error, response) => {
      client.close();
      if (error) reject(error);
      else resolve(response?.status ?? 'missing');
    });
  });
}

describe('gRPC health and graceful shutdown', () => {
  let fixture: GrpcFixture | undefined;

  afterEach(async () => {
    await fixture?.close().catch(() => {});
    fixture = undefined;
  });

  it('reports SERVING for the server and its service once started', async () => {
    fixture = await startFixture(async () => answer());
    expect(await healthOf(fixture.server.port, '')).toBe('SERVING');
    expect(await healthOf(fixture.server.port, SERVICE_NAME)).toBe('SERVING');
  });

  it('answers NOT_FOUND for a service it does not host', async () => {
    fixture = await startFixture(async () => answer());
    await expect(healthOf(fixture.server.port, 'engram.nope.v1.Nope')).rejects.toMatchObject({ code: 5 });
  });

  it('reports NOT_SERVING as soon as shutdown begins, while it still drains', async () => {
    const f = await startFixture(async () => answer());
    const stopped = f.server.shutdown(300);
    expect(await healthOf(f.server.port, '')).toBe('NOT_SERVING');
    expect(await healthOf(f.server.port, SERVICE_NAME)).toBe('NOT_SERVING');
    await stopped;
    f.client.close();
  });

  it('lets a call in flight finish before it closes', async () => {
    const started = Promise.withResolvers<void>();
    const release = Promise.withResolvers<void>();
    const f = await startFixture(async () => {
      started.resolve();
      await release.promise;
      return answer('drained');
    });
    const call = unary(f.client, f.client.describe, {}, { token: await f.userToken(), timeoutMs: 10_000 });
    await started.promise;
    let closed = false;
    const stopped = f.server.shutdown().then(() => {
      closed = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(closed).toBe(false);
    release.resolve();
    expect(await call).toEqual(answer('drained'));
    await stopped;
    expect(closed).toBe(true);
    f.client.close();
  });
});

describe('HTTP health server', () => {
  let health: HealthServer | undefined;

  afterEach(async () => {
    await health?.close();
    health = undefined;
  });

  const get = (path: string) =>
    fetch(`http://127.0.0.1:${health!.port}${path}`, { signal: AbortSignal.timeout(5_000) });

  it('answers /healthz with 200 as long as the process runs', async () => {
    health = await startHealthServer(0, '127.0.0.1');
    const response = await get('/healthz');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('ok');
  });

  it('answers /readyz with 503 until the process says it is ready, and again once it says it is not', async () => {
    health = await startHealthServer(0, '127.0.0.1');
    expect((await get('/readyz')).status).toBe(503);
    health.setReady(true);
    expect((await get('/readyz')).status).toBe(200);
    health.setReady(false);
    expect((await get('/readyz')).status).toBe(503);
  });

  it('serves Prometheus metrics including the handled gRPC calls', async () => {
    const fixture = await startFixture(async () => answer());
    try {
      await unary(fixture.client, fixture.client.describe, {}, { token: await fixture.userToken() });
    } finally {
      await fixture.close();
    }
    health = await startHealthServer(0, '127.0.0.1');
    const response = await get('/metrics');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await response.text();
    expect(text).toContain('# TYPE grpc_server_handling_seconds histogram');
    expect(text).toMatch(/grpc_server_handling_seconds_count\{service="testing",method="describe",code="OK"\} [1-9]/);
  });

  it('answers /metrics with 500, and keeps serving, when a metric cannot be collected', async () => {
    new Gauge({
      name: 'test_uncollectable',
      help: 'A metric whose collection fails',
      registers: [registry],
      collect() {
        throw new Error('collector failed');
      },
    });
    try {
      health = await startHealthServer(0, '127.0.0.1');
      expect((await get('/metrics')).status).toBe(500);
      expect((await get('/healthz')).status).toBe(200);
    } finally {
      registry.removeSingleMetric('test_uncollectable');
    }
  });

  it('answers an unknown path with 404', async () => {
    health = await startHealthServer(0, '127.0.0.1');
    expect((await get('/nope')).status).toBe(404);
  });
});
