// Outgoing calls: each has a deadline (the caller's, when that is sooner), a peer that is briefly
// unavailable is retried for methods the contract marks idempotent and never for the others, and the
// caller's trace continues in the called service.
import { createServer } from 'node:net';
import { DomainError } from '@engram/kit/errors';
import { connectClients, createClient, type GrpcCallError, unary } from '@engram/kit/grpc/client';
import { createInternalTokenSigner, generateInternalKeys } from '@engram/kit/internal-auth';
import { registry } from '@engram/kit/metrics';
import { inSpan, startTelemetry } from '@engram/kit/telemetry';
import { TestingServiceClient } from '@engram/proto/testing/v1/testing';
import { alice, answer, type GrpcFixture, SERVICE, startFixture } from '@engram/testkit/grpc-fixture';
import { connectivityState, status } from '@grpc/grpc-js';
import { trace } from '@opentelemetry/api';
import { afterEach, expect, it } from 'vitest';

const { tracer } = startTelemetry({ service: 'test' });

const fixtures: GrpcFixture[] = [];

afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((f) => f.close()));
});

async function serve(...args: Parameters<typeof startFixture>): Promise<GrpcFixture> {
  const fixture = await startFixture(...args);
  fixtures.push(fixture);
  return fixture;
}

const never = () => new Promise<never>(() => {});

/** A port nothing listens on (yet): bound once by the OS, then released. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

it('fails with DEADLINE_EXCEEDED when the peer does not answer within timeoutMs', async () => {
  const f = await serve(never);
  const call = unary(f.client, f.client.describe, {}, { token: await f.userToken(), timeoutMs: 200 });
  await expect(call).rejects.toMatchObject({ name: 'GrpcCallError', code: status.DEADLINE_EXCEEDED });
});

it("uses the caller's deadline when it is sooner than timeoutMs", async () => {
  let deadline: Date | undefined;
  const f = await serve(async (ctx) => {
    deadline = ctx.deadline;
    return never();
  });
  const parentDeadline = new Date(Date.now() + 300);
  const call = unary(
    f.client,
    f.client.describe,
    {},
    { token: await f.userToken(), timeoutMs: 10_000, parentDeadline },
  );
  await expect(call).rejects.toMatchObject({ code: status.DEADLINE_EXCEEDED });
  // The server saw the parent's deadline, not one ten seconds away.
  expect(deadline!.getTime()).toBeLessThanOrEqual(parentDeadline.getTime() + 50);
});

it('retries a peer that is unavailable at first and succeeds once it is up', async () => {
  const port = await freePort();
  const keys = await generateInternalKeys();
  const token = await (await createInternalTokenSigner(keys.privateJwk)).sign(alice, SERVICE);
  const client = createClient(TestingServiceClient, `127.0.0.1:${port}`);
  let late: Promise<GrpcFixture> | undefined;
  const timer = setTimeout(() => {
    late = serve(async () => answer('late'), { port, keys });
  }, 150);
  try {
    const result = await unary(client, client.describe, {}, { token, timeoutMs: 5_000 }).catch((e: GrpcCallError) => e);
    expect(result).toEqual(answer('late'));
  } finally {
    clearTimeout(timer);
    await late;
    client.close();
  }
});

it('continues the caller’s trace in the called service', async () => {
  let serverTraceId: string | undefined;
  const f = await serve(async () => {
    serverTraceId = trace.getActiveSpan()?.spanContext().traceId;
    return answer();
  });
  const token = await f.userToken();
  const callerTraceId = await inSpan(tracer, 'caller', async (span) => {
    await unary(f.client, f.client.describe, {}, { token });
    return span.spanContext().traceId;
  });
  expect(callerTraceId).toMatch(/^[0-9a-f]{32}$/);
  expect(serverTraceId).toBe(callerTraceId);
});

it('does not start a call whose signal has already been aborted', async () => {
  let reached = false;
  const f = await serve(async () => {
    reached = true;
    return answer();
  });
  const controller = new AbortController();
  controller.abort();
  const call = unary(f.client, f.client.describe, {}, { token: await f.userToken(), signal: controller.signal });
  await expect(call).rejects.toMatchObject({ code: status.CANCELLED });
  expect(reached).toBe(false);
});

it('measures each call under its method name and status code', async () => {
  const f = await serve(async () => answer());
  await unary(f.client, f.client.describe, {}, { token: await f.userToken() });
  const metric = await registry.getSingleMetricAsString('grpc_client_handling_seconds');
  expect(metric).toContain(
    'grpc_client_handling_seconds_count{method="engram.testing.v1.TestingService/Describe",code="OK"}',
  );
});

/** What a server answers while it cannot serve (for example, its database is failing over). */
class Unavailable extends DomainError {
  override readonly code = status.UNAVAILABLE;
}

it('retries a method marked NO_SIDE_EFFECTS that answered UNAVAILABLE', async () => {
  let attempts = 0;
  const f = await serve(async () => {
    attempts += 1;
    if (attempts < 3) throw new Unavailable('failing over');
    return answer('third time');
  });
  expect(await unary(f.client, f.client.describe, {}, { token: await f.userToken() })).toEqual(answer('third time'));
  expect(attempts).toBe(3);
});

it('never retries a method the contract does not mark idempotent', async () => {
  let attempts = 0;
  const f = await serve(async () => answer(), {
    record: async () => {
      attempts += 1;
      throw new Unavailable('failing over');
    },
  });
  const call = unary(f.client, f.client.record, { note: 'once' }, { token: await f.userToken() });
  await expect(call).rejects.toMatchObject({ code: status.UNAVAILABLE });
  expect(attempts).toBe(1);
});

it('connects clients before their first call, and gives up on a peer that is not up within the time given', async () => {
  const f = await serve(async () => answer('up'));
  const down = createClient(TestingServiceClient, `127.0.0.1:${await freePort()}`);
  try {
    const connected = await connectClients([f.client, down], 300);
    expect({
      connected,
      up: connectivityState[f.client.getChannel().getConnectivityState(false)],
    }).toEqual({ connected: 1, up: 'READY' });
  } finally {
    down.close();
  }
});
