// How long the gateway waits for a service on a user's behalf: a write gets as long as a read (a cold
// first transaction on a busy machine may take over 2 s), and a service that does not answer still fails
// with the fixed "took too long" answer soon after.
import { alice, type GrpcFixture, logger, SERVICE, startFixture } from '@engram/testkit/grpc-fixture';
import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAsUser } from '../../src/call.js';
import type { ProtectedContext } from '../../src/trpc.js';

let f: GrpcFixture;
let ctx: ProtectedContext;

beforeAll(async () => {
  // The write (Record) answers after the number of milliseconds its note says.
  f = await startFixture(async () => ({ service: SERVICE, version: 'test' }), {
    record: async (request) => {
      await new Promise((resolve) => setTimeout(resolve, Number(request.note)));
      return { attempts: 1 };
    },
  });
  ctx = {
    services: { signer: f.signer } as ProtectedContext['services'],
    logger,
    session: {
      caller: alice,
      user: {
        id: alice.userId,
        email: 'alice@example.com',
        emailVerified: true,
        name: 'Alice',
        role: 'admin',
        banned: false,
      },
    },
    signal: undefined,
  };
});

afterAll(() => f?.close());

describe('a call on the user’s behalf', () => {
  it('waits for a write that takes longer than 2 s on a busy machine', async () => {
    const answer = await callAsUser(ctx, SERVICE, f.client, f.client.record, { note: '2300' });
    expect(answer.attempts).toBe(1);
  });

  it('gives up on a service that does not answer within 3 s, with the fixed timeout answer', async () => {
    const error = await callAsUser(ctx, SERVICE, f.client, f.client.record, { note: '5000' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCError);
    expect((error as TRPCError).code).toBe('TIMEOUT');
  });
});
