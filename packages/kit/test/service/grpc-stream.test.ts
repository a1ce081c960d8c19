// Server-streaming calls through the kit: a handler yields its messages and the client reads them as
// they come; a typed error after some messages reaches the client after them, with its reason; a client
// that stops reading cancels the handler; and a token signed for several audiences is accepted by each
// and handed to the handler, so a service can forward it to another one it names.
import { FailedPrecondition } from '@engram/kit/errors';
import { GrpcCallError, serverStream, unary } from '@engram/kit/grpc/client';
import type { CallContext } from '@engram/kit/grpc/server';
import { createInternalTokenVerifier } from '@engram/kit/internal-auth';
import { alice, answer, type GrpcFixture, SERVICE, startFixture } from '@engram/testkit/grpc-fixture';
import { status } from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';

let fixture: GrpcFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const describeOk = async () => answer();

async function collect(stream: AsyncIterable<{ number: number }>) {
  const numbers: number[] = [];
  for await (const event of stream) numbers.push(event.number);
  return numbers;
}

/** The numbers a count stream delivered before it failed, and its failure. */
async function collectUntilFailure(running: GrpcFixture) {
  const { client } = running;
  const numbers: number[] = [];
  const failure = await (async () => {
    for await (const event of serverStream(client, client.count, { upTo: 5 }, { token: await running.userToken() }))
      numbers.push(event.number);
  })().catch((error: unknown) => error);
  return { numbers, failure };
}

describe('a server stream', () => {
  it('delivers every message the handler yields, in order, then ends', async () => {
    fixture = await startFixture(describeOk);
    const { client } = fixture;
    const stream = serverStream(client, client.count, { upTo: 5 }, { token: await fixture.userToken() });
    expect(await collect(stream)).toEqual([1, 2, 3, 4, 5]);
  });

  it('delivers the messages before a typed failure, then the failure with its status and reason', async () => {
    fixture = await startFixture(describeOk, {
      async *count() {
        yield { number: 1 };
        yield { number: 2 };
        throw new FailedPrecondition('no more numbers today', 'NUMBERS_EXHAUSTED');
      },
    });
    const { numbers, failure } = await collectUntilFailure(fixture);
    // One assertion for both, so that a client that got no messages says what it got instead (seen once under load).
    expect({ numbers, failure }).toMatchObject({
      numbers: [1, 2],
      failure: { code: status.FAILED_PRECONDITION, reason: 'NUMBERS_EXHAUSTED', message: 'no more numbers today' },
    });
    expect(failure).toBeInstanceOf(GrpcCallError);
  });

  it('delivers every message a handler wrote before it failed, however many are still queued', async () => {
    fixture = await startFixture(describeOk, {
      async *count() {
        for (let number = 1; number <= 500; number += 1) yield { number };
        throw new FailedPrecondition('no more numbers today', 'NUMBERS_EXHAUSTED');
      },
    });
    const { numbers, failure } = await collectUntilFailure(fixture);
    expect({ received: numbers.length, last: numbers.at(-1), failure }).toMatchObject({
      received: 500,
      last: 500,
      failure: { code: status.FAILED_PRECONDITION, reason: 'NUMBERS_EXHAUSTED' },
    });
  });

  it('refuses a call without a token before the handler runs', async () => {
    let ran = false;
    fixture = await startFixture(describeOk, {
      async *count() {
        ran = true;
        yield { number: 1 };
      },
    });
    const { client } = fixture;
    const failure = await collect(serverStream(client, client.count, { upTo: 1 })).catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: status.UNAUTHENTICATED });
    expect(ran).toBe(false);
  });

  it('cancels the handler when the client stops reading', async () => {
    let cancelled: () => void = () => {};
    const handlerSawCancel = new Promise<void>((resolve) => {
      cancelled = resolve;
    });
    fixture = await startFixture(describeOk, {
      async *count(_request, ctx: CallContext) {
        ctx.signal.addEventListener('abort', () => cancelled(), { once: true });
        for (let number = 1; ; number++) {
          yield { number };
          await new Promise((resolve) => setImmediate(resolve));
        }
      },
    });
    const { client } = fixture;
    for await (const event of serverStream(client, client.count, { upTo: 0 }, { token: await fixture.userToken() })) {
      if (event.number === 3) break;
    }
    await handlerSawCancel;
  });
});

describe('a token for several audiences', () => {
  it('is accepted by each service it names and reaches the handler as it came', async () => {
    let seen: string | undefined;
    fixture = await startFixture(async (ctx) => {
      seen = ctx.token;
      return answer();
    });
    const token = await fixture.signer.sign(alice, [SERVICE, 'cards']);
    const { client } = fixture;
    await unary(client, client.describe, {}, { token });
    expect(seen).toBe(token);
    const cards = createInternalTokenVerifier(fixture.keys.publicJwks, 'cards');
    expect(await cards.verify(token)).toMatchObject({ kind: 'user', userId: alice.userId });
    const billing = createInternalTokenVerifier(fixture.keys.publicJwks, 'billing');
    await expect(billing.verify(token)).rejects.toThrow();
  });
});
