// The cards service's gRPC services in-process, on a fresh schema of the run's database, with a key
// pair of their own: tests call them exactly as the gateway does, as any user they name.
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
import * as cardsProto from '@engram/proto/cards/v1/cards';
import * as metricsProto from '@engram/proto/cards/v1/metrics';
import * as reviewProto from '@engram/proto/cards/v1/review';
import * as settingsProto from '@engram/proto/cards/v1/settings';
import { testContext } from '@engram/testkit/context';
import { schemaUrl } from '@engram/testkit/databases';
import { closeStores, createStores } from '../src/db.js';
import { cardsServices } from '../src/server.js';

type DeepPartial<T> = T extends Date
  ? T
  : T extends (infer U)[]
    ? DeepPartial<U>[]
    : T extends object
      ? { [K in keyof T]?: DeepPartial<T[K]> }
      : T;

export async function startCardsHarness() {
  const databaseUrl = schemaUrl(testContext().databaseUrl, `cards_${randomBytes(4).toString('hex')}`);
  await applyMigrations({ databaseUrl, migrationsDir: new URL('../prisma/migrations', import.meta.url).pathname });
  const keys = await generateInternalKeys();
  const signer = await createInternalTokenSigner(keys.privateJwk);
  const logger = createLogger({ service: 'cards', level: 'silent' });
  const stores = createStores(databaseUrl);
  const verifier = createInternalTokenVerifier(keys.publicJwks, 'cards');
  const server = await startGrpcServer({
    port: 0,
    host: '127.0.0.1',
    services: cardsServices(stores, { service: 'cards', logger, verifier }),
    logger,
  });
  const address = `127.0.0.1:${server.port}`;
  const client = createClient(cardsProto.CardsServiceClient, address);
  const reviews = createClient(reviewProto.ReviewServiceClient, address);
  const metrics = createClient(metricsProto.MetricsServiceClient, address);
  const settings = createClient(settingsProto.SettingsServiceClient, address);
  const tokenFor = (userId: string) =>
    signer.sign({ userId, sessionId: `session-of-${userId}`, role: 'user', activeOrganizationId: null }, 'cards');

  /** Every procedure of the service, called as `userId`; requests may leave fields out. */
  function as(userId: string) {
    const call =
      <Req, Res>(
        target: Parameters<typeof unary>[0],
        method: Parameters<typeof unary<Req, Res>>[1],
        message: { fromPartial(value: never): Req },
      ) =>
      async (request: DeepPartial<Req> = {} as DeepPartial<Req>) =>
        unary<Req, Res>(target, method, message.fromPartial(request as never), { token: await tokenFor(userId) });
    return {
      createCard: call(client, client.createCard, cardsProto.CreateCardRequest),
      createCards: call(client, client.createCards, cardsProto.CreateCardsRequest),
      updateCard: call(client, client.updateCard, cardsProto.UpdateCardRequest),
      archiveCard: call(client, client.archiveCard, cardsProto.ArchiveCardRequest),
      deleteCard: call(client, client.deleteCard, cardsProto.DeleteCardRequest),
      listCards: call(client, client.listCards, cardsProto.ListCardsRequest),
      listTags: call(client, client.listTags, cardsProto.ListTagsRequest),
      createTag: call(client, client.createTag, cardsProto.CreateTagRequest),
      renameTag: call(client, client.renameTag, cardsProto.RenameTagRequest),
      deleteTag: call(client, client.deleteTag, cardsProto.DeleteTagRequest),
      listDue: call(reviews, reviews.listDue, reviewProto.ListDueRequest),
      review: call(reviews, reviews.review, reviewProto.ReviewRequest),
      undoReview: call(reviews, reviews.undoReview, reviewProto.UndoReviewRequest),
      progressMetrics: call(metrics, metrics.progressMetrics, metricsProto.ProgressMetricsRequest),
      streak: call(metrics, metrics.streak, metricsProto.StreakRequest),
      reviewMetrics: call(metrics, metrics.reviewMetrics, metricsProto.ReviewMetricsRequest),
      getSettings: call(settings, settings.getSettings, settingsProto.GetSettingsRequest),
      updateSettings: call(settings, settings.updateSettings, settingsProto.UpdateSettingsRequest),
    };
  }

  return {
    databaseUrl,
    db: stores.db,
    pool: stores.pool,
    signer,
    tokenFor,
    as,
    create: async (userId: string, front: string, back = 'back') =>
      (await as(userId).createCard({ front, back })).card!,
    list: (userId: string, request: DeepPartial<cardsProto.ListCardsRequest> = {}) => as(userId).listCards(request),
    client,
    async stop() {
      for (const c of [client, reviews, metrics, settings]) c.close();
      await server.shutdown();
      await closeStores(stores);
    },
  };
}

export type CardsHarness = Awaited<ReturnType<typeof startCardsHarness>>;
export type CardsCaller = ReturnType<CardsHarness['as']>;
