// What every gRPC test arranges: a real in-process server for kit's own test contract
// (engram.testing.v1: Describe, a read clients may retry; Record, a write they must not) whose handlers
// the test supplies, a real client for it, and internal-token keys.
import { createClient } from '@engram/kit/grpc/client';
import { type CallContext, implement, type RunningGrpcServer, startGrpcServer } from '@engram/kit/grpc/server';
import {
  type Caller,
  createInternalTokenSigner,
  createInternalTokenVerifier,
  generateInternalKeys,
  type InternalTokenSigner,
} from '@engram/kit/internal-auth';
import { createLogger } from '@engram/kit/logger';
import {
  type CountEvent,
  type CountRequest,
  type DescribeResponse,
  type RecordRequest,
  type RecordResponse,
  TestingServiceClient,
  TestingServiceService,
} from '@engram/proto/testing/v1/testing';

export const SERVICE = 'testing';
export const SERVICE_NAME = 'engram.testing.v1.TestingService';
export const logger = createLogger({ service: 'grpc-test', level: 'silent' });

export const alice = { userId: 'user-alice', sessionId: 'session-1', role: 'admin', activeOrganizationId: 'org-1' };

export type Handle = (ctx: CallContext<Caller>) => Promise<DescribeResponse>;
export type HandleRecord = (request: RecordRequest) => Promise<RecordResponse>;
export type HandleCount = (request: CountRequest, ctx: CallContext) => AsyncIterable<CountEvent>;

export interface GrpcFixture {
  server: RunningGrpcServer;
  client: TestingServiceClient;
  signer: InternalTokenSigner;
  keys: { privateJwk: string; publicJwks: string };
  /** A token for alice addressed to the service under test. */
  userToken(): Promise<string>;
  close(): Promise<void>;
}

export const answer = (service = 'ok'): DescribeResponse => ({ service, version: 'test' });

async function* countUpTo(request: CountRequest): AsyncIterable<CountEvent> {
  for (let number = 1; number <= request.upTo; number++) yield { number };
}

/**
 * Starts a server whose Describe runs `handle` with the given access (default: user tokens only), and
 * whose Record runs `options.record` (default: answers one attempt).
 */
export async function startFixture(
  handle: Handle,
  options: {
    access?: 'user' | 'service';
    port?: number;
    keys?: GrpcFixture['keys'];
    record?: HandleRecord;
    count?: HandleCount;
  } = {},
): Promise<GrpcFixture> {
  const keys = options.keys ?? (await generateInternalKeys());
  const signer = await createInternalTokenSigner(keys.privateJwk);
  const verifier = createInternalTokenVerifier(keys.publicJwks, SERVICE);
  const handler =
    options.access === 'service'
      ? { access: 'service' as const, handle: (_: unknown, ctx: CallContext<Caller>) => handle(ctx) }
      : { handle: (_: unknown, ctx: CallContext) => handle(ctx) };
  const server = await startGrpcServer({
    port: options.port ?? 0,
    host: '127.0.0.1',
    logger,
    services: [
      {
        name: SERVICE_NAME,
        definition: TestingServiceService,
        implementation: implement(
          TestingServiceService,
          {
            describe: handler,
            record: { handle: options.record ?? (async () => ({ attempts: 1 })) },
            count: { handle: options.count ?? countUpTo },
          },
          { service: SERVICE, logger, verifier },
        ),
      },
    ],
  });
  const client = createClient(TestingServiceClient, `127.0.0.1:${server.port}`);
  return {
    server,
    client,
    signer,
    keys,
    userToken: () => signer.sign(alice, SERVICE),
    async close() {
      client.close();
      await server.shutdown();
    },
  };
}
