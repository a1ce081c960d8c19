// What every gRPC test arranges: a real in-process server for the organizations contract (one unary
// method, Describe) whose handler the test supplies, a real client for it, and internal-token keys.
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
  type DescribeResponse,
  OrganizationsServiceClient,
  OrganizationsServiceService,
} from '@engram/proto/organizations/v1/organizations';

export const SERVICE = 'organizations';
export const SERVICE_NAME = 'engram.organizations.v1.OrganizationsService';
export const logger = createLogger({ service: 'grpc-test', level: 'silent' });

export const alice = { userId: 'user-alice', sessionId: 'session-1', role: 'admin', activeOrganizationId: 'org-1' };

export type Handle = (ctx: CallContext<Caller>) => Promise<DescribeResponse>;

export interface GrpcFixture {
  server: RunningGrpcServer;
  client: OrganizationsServiceClient;
  signer: InternalTokenSigner;
  keys: { privateJwk: string; publicJwks: string };
  /** A token for alice addressed to the service under test. */
  userToken(): Promise<string>;
  close(): Promise<void>;
}

export const answer = (service = 'ok'): DescribeResponse => ({ service, version: 'test' });

/** Starts a server whose Describe runs `handle`, with the given access (default: user tokens only). */
export async function startFixture(
  handle: Handle,
  options: { access?: 'user' | 'service'; port?: number; keys?: GrpcFixture['keys'] } = {},
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
        definition: OrganizationsServiceService,
        implementation: implement(
          OrganizationsServiceService,
          { describe: handler },
          { service: SERVICE, logger, verifier },
        ),
      },
    ],
  });
  const client = createClient(OrganizationsServiceClient, `127.0.0.1:${server.port}`);
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
