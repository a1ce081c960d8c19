// The gRPC server's single interceptor: typed domain errors become status codes (with their reason),
// anything else becomes an opaque INTERNAL, every call needs a valid internal token for this service,
// and the handler sees the caller, the client's cancellation and the client's deadline.
import { Conflict, FailedPrecondition, Invalid, NotFound, PermissionDenied } from '@engram/kit/errors';
import { GrpcCallError, unary } from '@engram/kit/grpc/client';
import { type Caller, createInternalTokenSigner, generateInternalKeys } from '@engram/kit/internal-auth';
import { alice, answer, type GrpcFixture, type Handle, SERVICE, startFixture } from '@engram/testkit/grpc-fixture';
import { status } from '@grpc/grpc-js';
import { importJWK, SignJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';

let fixture: GrpcFixture | undefined;

afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

async function serve(handle: Handle, access?: 'user' | 'service'): Promise<GrpcFixture> {
  fixture = await startFixture(handle, { access });
  return fixture;
}

/** Calls Describe and returns the failure it must end in. */
async function failure(f: GrpcFixture, token: string | undefined): Promise<GrpcCallError> {
  const error = await unary(f.client, f.client.describe, {}, { token }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GrpcCallError);
  return error as GrpcCallError;
}

/** Waits for `promise`, failing (rather than hanging the run) if it does not settle in a few seconds. */
async function within(promise: Promise<unknown>, what: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for: ${what}`)), 5_000);
  });
  await Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

describe('errors', () => {
  it.each([
    ['NotFound', new NotFound('no such card', 'CARD_NOT_FOUND'), status.NOT_FOUND],
    ['Invalid', new Invalid('front is empty', 'FRONT_EMPTY'), status.INVALID_ARGUMENT],
    ['Conflict', new Conflict('already a member', 'ALREADY_MEMBER'), status.ALREADY_EXISTS],
    ['FailedPrecondition', new FailedPrecondition('limit reached', 'USAGE_LIMIT_REACHED'), status.FAILED_PRECONDITION],
    ['PermissionDenied', new PermissionDenied('not an owner', 'NOT_OWNER'), status.PERMISSION_DENIED],
  ])('turns %s into its status code, message and reason', async (_, thrown, code) => {
    const f = await serve(async () => {
      throw thrown;
    });
    const error = await failure(f, await f.userToken());
    expect(error.code).toBe(code);
    expect(error.message).toBe(thrown.message);
    expect(error.reason).toBe(thrown.reason);
  });

  it('leaves the reason undefined when the domain error has none', async () => {
    const f = await serve(async () => {
      throw new NotFound('no such deck');
    });
    expect((await failure(f, await f.userToken())).reason).toBeUndefined();
  });

  it('turns an unexpected error into INTERNAL without leaking its detail', async () => {
    const f = await serve(async () => {
      throw new Error('connection to db-7.internal:5432 refused');
    });
    const error = await failure(f, await f.userToken());
    expect(error.code).toBe(status.INTERNAL);
    expect(error.message).toBe('internal error');
    expect(error.reason).toBeUndefined();
  });
});

describe('a database that cannot be reached', () => {
  it.each([
    [
      'pg: a connection ended by a restart',
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
    ],
    [
      'pg: a server still starting up',
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
    ],
    [
      'pg: a refused connection',
      Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:5432'), { code: 'ECONNREFUSED' }),
    ],
    ['pg: a connection cut mid-query', new Error('Connection terminated unexpectedly')],
    [
      "Prisma's adapter wrapping pg's error",
      Object.assign(new Error('Invalid invocation'), {
        name: 'DriverAdapterError',
        cause: { kind: 'postgres', originalCode: '57P01', originalMessage: 'terminating connection' },
      }),
    ],
  ])('turns %s into UNAVAILABLE (try again), without its detail', async (_, thrown) => {
    const f = await serve(async () => {
      throw thrown;
    });
    const error = await failure(f, await f.userToken());
    expect(error.code).toBe(status.UNAVAILABLE);
    expect(error.message).toBe('the database is unavailable');
  });

  it('keeps a statement the database refused (a constraint, a syntax error) INTERNAL', async () => {
    const f = await serve(async () => {
      throw Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' });
    });
    expect((await failure(f, await f.userToken())).code).toBe(status.INTERNAL);
  });
});

describe('internal tokens', () => {
  const reached = { count: 0 };
  const counting: Handle = async () => {
    reached.count += 1;
    return answer();
  };

  async function forgedExpired(f: GrpcFixture): Promise<string> {
    const jwk = JSON.parse(f.keys.privateJwk);
    const past = Math.floor(Date.now() / 1000) - 3600;
    return new SignJWT({ kind: 'user', sid: alice.sessionId, role: alice.role, org: alice.activeOrganizationId })
      .setProtectedHeader({ alg: 'EdDSA', kid: jwk.kid })
      .setSubject(alice.userId)
      .setIssuer('engram-gateway')
      .setAudience(SERVICE)
      .setIssuedAt(past)
      .setExpirationTime(past + 60)
      .sign(await importJWK(jwk, 'EdDSA'));
  }

  it.each([
    ['missing', async () => undefined],
    ['not a JWT', async () => 'not-a-token'],
    ['for another audience', (f: GrpcFixture) => f.signer.sign(alice, 'billing')],
    ['expired', forgedExpired],
    [
      'signed by an unknown key',
      async () => (await createInternalTokenSigner((await generateInternalKeys()).privateJwk)).sign(alice, SERVICE),
    ],
  ])('refuses a call whose token is %s with UNAUTHENTICATED, before the handler runs', async (_, token) => {
    reached.count = 0;
    const f = await serve(counting);
    expect((await failure(f, await token(f))).code).toBe(status.UNAUTHENTICATED);
    expect(reached.count).toBe(0);
  });

  it('refuses a service token on a method for users', async () => {
    const f = await serve(counting);
    const error = await failure(f, await f.signer.signSystem('gateway', SERVICE));
    expect(error.code).toBe(status.UNAUTHENTICATED);
  });

  it('accepts a service token on a method open to services, with the service as caller', async () => {
    let caller: Caller | undefined;
    const f = await serve(async (ctx) => {
      caller = ctx.caller;
      return answer();
    }, 'service');
    const token = await f.signer.signSystem('gateway', SERVICE);
    expect(await unary(f.client, f.client.describe, {}, { token })).toEqual(answer());
    expect(caller).toEqual({ kind: 'system', service: 'gateway' });
  });

  it("gives the handler the user's claims as ctx.caller", async () => {
    let caller: Caller | undefined;
    const f = await serve(async (ctx) => {
      caller = ctx.caller;
      return answer();
    });
    await unary(f.client, f.client.describe, {}, { token: await f.userToken() });
    expect(caller).toEqual({ kind: 'user', ...alice });
  });
});

describe('call context', () => {
  it('aborts ctx.signal when the client cancels the call', async () => {
    const started = Promise.withResolvers<void>();
    const aborted = Promise.withResolvers<void>();
    const f = await serve(async (ctx) => {
      ctx.signal.addEventListener('abort', () => aborted.resolve(), { once: true });
      started.resolve();
      return new Promise(() => {}); // ends only by being cancelled
    });
    const controller = new AbortController();
    const call = unary(f.client, f.client.describe, {}, { token: await f.userToken(), signal: controller.signal });
    await started.promise;
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: status.CANCELLED });
    await within(aborted.promise, 'ctx.signal aborted');
  });

  it('leaves ctx.signal alone once the call has answered (grpc-js reports its stream closing as cancelled)', async () => {
    const signals: AbortSignal[] = [];
    const f = await serve(async (ctx) => {
      signals.push(ctx.signal);
      return answer();
    });
    const token = await f.userToken();
    await unary(f.client, f.client.describe, {}, { token });
    // The next call reaches the server after the first one's stream has closed there.
    await unary(f.client, f.client.describe, {}, { token });
    await unary(f.client, f.client.describe, {}, { token });
    expect(signals.map((signal) => signal.aborted)).toEqual([false, false, false]);
  });

  it("aborts ctx.signal when the client's deadline passes", async () => {
    const aborted = Promise.withResolvers<void>();
    const f = await serve(async (ctx) => {
      ctx.signal.addEventListener('abort', () => aborted.resolve(), { once: true });
      return new Promise(() => {});
    });
    const call = unary(f.client, f.client.describe, {}, { token: await f.userToken(), timeoutMs: 200 });
    await expect(call).rejects.toMatchObject({ code: status.DEADLINE_EXCEEDED });
    await within(aborted.promise, 'ctx.signal aborted');
  });

  it("shows the client's deadline as ctx.deadline", async () => {
    let deadline: Date | undefined;
    const f = await serve(async (ctx) => {
      deadline = ctx.deadline;
      return answer();
    });
    const before = Date.now();
    await unary(f.client, f.client.describe, {}, { token: await f.userToken(), timeoutMs: 30_000 });
    expect(deadline).toBeInstanceOf(Date);
    // The deadline travels as a relative timeout, so allow for the time the call took to arrive.
    expect(deadline!.getTime()).toBeGreaterThan(before + 25_000);
    expect(deadline!.getTime()).toBeLessThanOrEqual(Date.now() + 30_000);
  });
});
