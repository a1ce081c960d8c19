// How long the gateway waits for a service on a user's behalf: a write gets as long as a read (a cold
// first transaction on a busy machine may take over 2 s), and a service that does not answer still fails
// with the fixed "took too long" answer soon after.
import { createClient } from '@engram/kit/grpc/client';
import { implement, type RunningGrpcServer, startGrpcServer } from '@engram/kit/grpc/server';
import {
  createInternalTokenSigner,
  createInternalTokenVerifier,
  generateInternalKeys,
} from '@engram/kit/internal-auth';
import { createLogger } from '@engram/kit/logger';
import { type RecordRequest, TestingServiceClient, TestingServiceService } from '@engram/proto/testing/v1/testing';
import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAsUser } from '../src/call.js';
import type { ProtectedContext } from '../src/trpc.js';

const logger = createLogger({ service: 'call-test', level: 'silent' });
const caller = { userId: 'user-ada', sessionId: 'session-1', role: 'user', activeOrganizationId: '' };

let server: RunningGrpcServer;
let client: TestingServiceClient;
let ctx: ProtectedContext;

/** The write answers after the number of milliseconds its note says. */
async function slowRecord(request: RecordRequest) {
  await new Promise((resolve) => setTimeout(resolve, Number(request.note)));
  return { attempts: 1 };
}

beforeAll(async () => {
  const keys = await generateInternalKeys();
  const signer = await createInternalTokenSigner(keys.privateJwk);
  const verifier = createInternalTokenVerifier(keys.publicJwks, 'testing');
  const implementation = implement(
    TestingServiceService,
    {
      describe: { handle: async () => ({ service: 'testing', version: 'test' }) },
      record: { handle: slowRecord },
      count: { handle: async function* () {} },
    },
    { service: 'testing', logger, verifier },
  );
  server = await startGrpcServer({
    port: 0,
    host: '127.0.0.1',
    logger,
    services: [{ name: 'engram.testing.v1.TestingService', definition: TestingServiceService, implementation }],
  });
  client = createClient(TestingServiceClient, `127.0.0.1:${server.port}`);
  ctx = {
    services: { signer } as ProtectedContext['services'],
    logger,
    session: {
      caller,
      user: {
        id: caller.userId,
        email: 'ada@example.com',
        emailVerified: true,
        name: 'Ada',
        role: 'user',
        banned: false,
      },
    },
    signal: undefined,
  };
});

afterAll(async () => {
  client.close();
  await server?.shutdown();
});

describe('a call on the user’s behalf', () => {
  it('waits for a write that takes longer than 2 s on a busy machine', async () => {
    const answer = await callAsUser(ctx, 'testing', client, client.record, { note: '2300' });
    expect(answer.attempts).toBe(1);
  });

  it('gives up on a service that does not answer within 3 s, with the fixed timeout answer', async () => {
    const error = await callAsUser(ctx, 'testing', client, client.record, { note: '5000' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCError);
    expect((error as TRPCError).code).toBe('TIMEOUT');
  });
});
