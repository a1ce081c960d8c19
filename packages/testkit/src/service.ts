// One service's gRPC server in-process, for its tests and for benchmarks: a fresh schema of a database
// with the service's committed migrations applied, a key pair of its own for internal tokens, and
// clients that call it exactly as the gateway does (as any user, or as the system).
import { randomBytes } from 'node:crypto';
import { type EventsDeclaration, type ServiceEvents, startServiceEvents } from '@engram/kit/events/runtime';
import type { EventsSettings } from '@engram/kit/events/setup';
import { createClient } from '@engram/kit/grpc/client';
import { type ServerOptions, startGrpcServer } from '@engram/kit/grpc/server';
import {
  createInternalTokenSigner,
  createInternalTokenVerifier,
  generateInternalKeys,
  type InternalTokenSigner,
} from '@engram/kit/internal-auth';
import { createLogger, type Logger } from '@engram/kit/logger';
import { applyMigrations } from '@engram/kit/migrate';
import { serviceDatabaseUrl } from '@engram/local/components';
import type { ChannelCredentials, Client, ServiceDefinition } from '@grpc/grpc-js';
import { keepLastLines } from './service-lines.ts';

export interface GrpcServiceEntry {
  name: string;
  definition: ServiceDefinition;
  implementation: object;
}

export interface ServiceParts<R> {
  services: GrpcServiceEntry[];
  /** What the tests may reach besides the gRPC API (a database client, a pool, an HTTP server...). */
  resources: R;
  /** The events the service takes part in, started as runService starts them (see `events` below). */
  events?: EventsDeclaration<unknown>;
  close(): Promise<void> | void;
}

export interface ServiceUnderTestOptions<R> {
  /** The audience of its internal tokens, e.g. 'cards'. */
  service: string;
  /** The service's prisma/migrations folder; omitted for a service without a database. */
  migrationsDir?: string;
  /** A database URL to create the schema in; by default, the test run's database. */
  databaseUrl?: string;
  /** The lowest level kept of what the service logs (default warn): a wait that times out prints it. */
  logLevel?: string;
  /** The internal token keys, when several services under test must accept the same tokens. */
  keys?: { privateJwk: string; publicJwks: string };
  /** The audiences of the user tokens tokenFor signs (default: the service alone). */
  tokenAudiences?: string[];
  /**
   * Where the service's events go when it declares any: by default the run's NATS, a stream and subject
   * prefix of the service's own (deleted by the run's teardown with the others).
   */
  events?: { natsUrl?: string; streamName?: string; subjectPrefix?: string };
  /** Builds the service from its database URL and the options `implement` needs. */
  start(context: {
    databaseUrl: string;
    serverOptions: ServerOptions;
    logger: Logger;
  }): Promise<ServiceParts<R>> | ServiceParts<R>;
}

type ClientConstructor<C> = new (address: string, credentials: ChannelCredentials, options?: object) => C;

export interface ServiceUnderTest<R> {
  databaseUrl: string;
  address: string;
  resources: R;
  signer: InternalTokenSigner;
  /** A user token for `userId`, as the gateway signs it for this service. */
  tokenFor(userId: string): Promise<string>;
  /** A token the gateway signs for itself (no user). */
  systemToken(): Promise<string>;
  /** The running events wiring, when the service declared events. */
  events: (ServiceEvents & { natsUrl: string; settings: EventsSettings }) | undefined;
  /** A client of one of the service's gRPC services, closed by stop(). */
  client<C extends Client>(Ctor: ClientConstructor<C>): C;
  stop(): Promise<void>;
}

async function defaultDatabaseUrl(): Promise<string> {
  // Loaded only inside vitest: benchmarks pass their own database.
  const { testContext } = await import('./context.ts');
  return testContext().databaseUrl;
}

export async function startServiceUnderTest<R>(options: ServiceUnderTestOptions<R>): Promise<ServiceUnderTest<R>> {
  const base = options.databaseUrl ?? (await defaultDatabaseUrl());
  const databaseUrl = serviceDatabaseUrl(base, `${options.service}_${randomBytes(4).toString('hex')}`);
  if (options.migrationsDir) await applyMigrations({ databaseUrl, migrationsDir: options.migrationsDir });
  const keys = options.keys ?? (await generateInternalKeys());
  const signer = await createInternalTokenSigner(keys.privateJwk);
  const kept = keepLastLines(options.service);
  const logger = createLogger({
    service: options.service,
    level: options.logLevel ?? 'warn',
    destination: kept.destination,
  });
  const verifier = createInternalTokenVerifier(keys.publicJwks, options.service);
  const parts = await options.start({
    databaseUrl,
    serverOptions: { service: options.service, logger, verifier },
    logger,
  });
  const events = parts.events && (await startEvents(options, databaseUrl, logger, parts.events));
  const server = await startGrpcServer({ port: 0, host: '127.0.0.1', services: parts.services, logger });
  const address = `127.0.0.1:${server.port}`;
  const clients: Client[] = [];
  return {
    databaseUrl,
    address,
    resources: parts.resources,
    signer,
    tokenFor: (userId) =>
      signer.sign(
        { userId, sessionId: `session-of-${userId}`, role: 'user', activeOrganizationId: null },
        options.tokenAudiences ?? options.service,
      ),
    systemToken: () => signer.signSystem('gateway', options.service),
    events,
    client(Ctor) {
      const client = createClient(Ctor, address);
      clients.push(client);
      return client;
    },
    async stop() {
      for (const client of clients) client.close();
      await server.shutdown();
      await events?.stop();
      await parts.close();
      kept.forget();
    },
  };
}

async function startEvents<R>(
  options: ServiceUnderTestOptions<R>,
  databaseUrl: string,
  logger: Logger,
  declaration: EventsDeclaration<unknown>,
) {
  const { testContext } = await import('./context.ts');
  const context = testContext();
  const suffix = randomBytes(3).toString('hex');
  const natsUrl = options.events?.natsUrl ?? context.natsUrl;
  const settings: EventsSettings = {
    streamName: options.events?.streamName ?? `${context.streamName}_${options.service.toUpperCase()}_${suffix}`,
    subjectPrefix: options.events?.subjectPrefix ?? `${context.subjectPrefix}${options.service}${suffix}.`,
  };
  const running = startServiceEvents<unknown>({
    ...declaration,
    relayOptions: { pollIntervalMs: 200, maxBackoffMs: 500, publishTimeoutMs: 1_000, ...declaration.relayOptions },
    service: options.service,
    databaseUrl,
    natsUrl,
    settings,
    logger,
  });
  return { ...running, natsUrl, settings };
}
