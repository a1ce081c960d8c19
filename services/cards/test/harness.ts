// The cards service's gRPC server in-process, on a fresh schema of the run's database, with a key
// pair of its own: tests call it exactly as the gateway does.
import { randomBytes } from 'node:crypto';
import { createClient, unary } from '@engram/kit/grpc/client';
import { startGrpcServer } from '@engram/kit/grpc/server';
import {
  createInternalTokenSigner,
  createInternalTokenVerifier,
  generateInternalKeys,
} from '@engram/kit/internal-auth';
import { createLogger } from '@engram/kit/logger';
import { applyMigrations } from '@engram/kit/migrate';
import { CardsServiceClient } from '@engram/proto/cards/v1/cards';
import { testContext } from '@engram/testkit/context';
import { schemaUrl } from '@engram/testkit/databases';
import { createDb } from '../src/db.js';
import { cardsService } from '../src/server.js';

export async function startCardsHarness() {
  const databaseUrl = schemaUrl(testContext().databaseUrl, `cards_${randomBytes(4).toString('hex')}`);
  await applyMigrations({ databaseUrl, migrationsDir: new URL('../prisma/migrations', import.meta.url).pathname });
  const keys = await generateInternalKeys();
  const signer = await createInternalTokenSigner(keys.privateJwk);
  const logger = createLogger({ service: 'cards', level: 'silent' });
  const db = createDb(databaseUrl);
  const verifier = createInternalTokenVerifier(keys.publicJwks, 'cards');
  const server = await startGrpcServer({
    port: 0,
    host: '127.0.0.1',
    services: [cardsService(db, { service: 'cards', logger, verifier })],
    logger,
  });
  const client = createClient(CardsServiceClient, `127.0.0.1:${server.port}`);
  const tokenFor = (userId: string) =>
    signer.sign({ userId, sessionId: `session-of-${userId}`, role: 'user', activeOrganizationId: null }, 'cards');
  return {
    databaseUrl,
    db,
    signer,
    tokenFor,
    create: async (userId: string, front: string, back = 'back') =>
      (await unary(client, client.createCard, { front, back }, { token: await tokenFor(userId) })).card!,
    list: async (userId: string, request: { pageSize?: number; cursor?: string; archived?: boolean } = {}) =>
      unary(
        client,
        client.listCards,
        { pageSize: request.pageSize ?? 0, cursor: request.cursor ?? '', archived: request.archived ?? false },
        { token: await tokenFor(userId) },
      ),
    client,
    async stop() {
      client.close();
      await server.shutdown();
      await db.$disconnect();
    },
  };
}

export type CardsHarness = Awaited<ReturnType<typeof startCardsHarness>>;
