// The ai service in-process with the real services it asks: cards and billing (billing on its Stripe
// stand-in), all three accepting the same internal tokens, which name ai, cards and billing as the
// gateway signs them for ai. The generator is Bedrock through the real SDK against the protocol-level
// fake (streamed or not), or the offline one. Uploads are read by the real reader pool (child processes)
// with the configuration's default limits unless a test gives its own. Helpers call every method as any user.
import { randomUUID } from 'node:crypto';
import { createCatalogue } from '@engram/billing/catalogue';
import { readConfig as readBillingConfig } from '@engram/billing/config';
import { createDb as createBillingDb } from '@engram/billing/db';
import { billingService } from '@engram/billing/server';
import { createStripeAccess } from '@engram/billing/stripe-client';
import { startBillingHttp } from '@engram/billing/webhook-http';
import { closeStores, createStores } from '@engram/cards/db';
import { cardsServices } from '@engram/cards/server';
import { createClient, serverStream, unary } from '@engram/kit/grpc/client';
import { generateInternalKeys } from '@engram/kit/internal-auth';
import * as aiProto from '@engram/proto/ai/v1/ai';
import { BillingServiceClient } from '@engram/proto/billing/v1/billing';
import { CardsServiceClient } from '@engram/proto/cards/v1/cards';
import { type BedrockFake, startBedrockFake } from '@engram/testkit/bedrock-fake';
import { startServiceUnderTest } from '@engram/testkit/service';
import { parseAiConfig } from '../src/config.js';
import { createDb } from '../src/db.js';
import { aiEvents } from '../src/events/index.js';
import { createBedrockGenerator } from '../src/generators/bedrock.js';
import { createOfflineGenerator } from '../src/generators/offline.js';
import { aiService } from '../src/server.js';
import type { UploadQuota } from '../src/uploads/quota.js';
import { createReaderPool, type ReaderLimits } from '../src/uploads/reader-pool.js';

const migrations = (service: string) => new URL(`../../${service}/prisma/migrations`, import.meta.url).pathname;
export const MODEL_ID = 'anthropic.claude-3-5-haiku-20241022-v1:0';

export interface AiHarnessOptions {
  generator: 'offline' | 'bedrock-stream' | 'bedrock-single';
  /** GENERATED_CARDS_FREE of billing. */
  freeLimit?: number;
  generationTimeoutMs?: number;
  modelCallTimeoutMs?: number;
  /** Limits of the upload reader pool and the upload quota, over the configuration's defaults. */
  uploads?: { reader?: Partial<ReaderLimits>; quota?: Partial<UploadQuota> };
}

/** The configuration's defaults of the upload limits. */
export const defaultUploads = parseAiConfig({
  NODE_ENV: 'test',
  INTERNAL_TOKEN_PUBLIC_KEYS: 'not-used',
  DATABASE_URL: 'postgresql://127.0.0.1/not-used',
  CARDS_ADDR: '127.0.0.1:1',
  BILLING_ADDR: '127.0.0.1:1',
  NATS_URL: 'nats://127.0.0.1:1',
}).uploads;

export async function startAiHarness(options: AiHarnessOptions) {
  const keys = await generateInternalKeys();
  const cards = await startServiceUnderTest({
    service: 'cards',
    migrationsDir: migrations('cards'),
    keys,
    start({ databaseUrl, serverOptions, logger }) {
      const stores = createStores(databaseUrl, { logger });
      return { services: cardsServices(stores, serverOptions), resources: stores, close: () => closeStores(stores) };
    },
  });
  const billing = await startServiceUnderTest({
    service: 'billing',
    migrationsDir: migrations('billing'),
    keys,
    async start({ databaseUrl, serverOptions, logger }) {
      const http = await startBillingHttp(0, {}, logger);
      const config = readBillingConfig({
        NODE_ENV: 'test',
        INTERNAL_TOKEN_PUBLIC_KEYS: 'verified-by-the-harness',
        DATABASE_URL: databaseUrl,
        NATS_URL: 'nats://127.0.0.1:4222',
        PUBLIC_BASE_URL: `http://127.0.0.1:${http.port}`,
        GENERATED_CARDS_FREE: String(options.freeLimit ?? 200),
      });
      const db = createBillingDb(databaseUrl, logger);
      const access = await createStripeAccess(config, http.port, logger);
      const catalogue = createCatalogue(access.stripe, config.prices, 60, logger);
      return {
        services: [
          billingService({ db, stripe: access.stripe, config, catalogue }, { ...serverOptions, version: 'test' }),
        ],
        resources: { db },
        async close() {
          await http.close();
          await db.$disconnect();
        },
      };
    },
  });
  const bedrock: BedrockFake | undefined = options.generator === 'offline' ? undefined : await startBedrockFake();
  const ai = await startServiceUnderTest({
    service: 'ai',
    migrationsDir: migrations('ai'),
    keys,
    tokenAudiences: ['ai', 'cards', 'billing'],
    events: {},
    start({ databaseUrl, serverOptions, logger }) {
      const db = createDb(databaseUrl, logger);
      const readerLimits = { ...defaultUploads.reader, ...options.uploads?.reader };
      const readerPool = createReaderPool(readerLimits, logger);
      const cardsClient = createClient(CardsServiceClient, cards.address);
      const billingClient = createClient(BillingServiceClient, billing.address);
      const generator = bedrock
        ? createBedrockGenerator(
            {
              region: 'us-east-1',
              modelId: MODEL_ID,
              endpoint: bedrock.url,
              streaming: options.generator === 'bedrock-stream',
              credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret-for-tests' },
              callTimeoutMs: options.modelCallTimeoutMs ?? 10_000,
            },
            logger,
          )
        : createOfflineGenerator();
      return {
        services: [
          aiService(
            {
              db,
              cards: cardsClient,
              billing: billingClient,
              generator,
              generationTimeoutMs: options.generationTimeoutMs ?? 30_000,
              uploads: {
                reader: { pool: readerPool, limits: readerLimits },
                quota: { ...defaultUploads.quota, ...options.uploads?.quota },
              },
            },
            { ...serverOptions, version: 'test' },
          ),
        ],
        resources: { db },
        events: aiEvents(db) as never,
        async close() {
          readerPool.close();
          cardsClient.close();
          billingClient.close();
          await db.$disconnect();
        },
      };
    },
  });
  const client = ai.client(aiProto.AiServiceClient);
  const cardsClient = cards.client(CardsServiceClient);
  let billingStopped = false;

  function as(userId: string) {
    const token = () => ai.tokenFor(userId);
    return {
      usage: async () => unary(client, client.getUsage, {}, { token: await token() }),
      exportUserData: async () => unary(client, client.exportUserData, {}, { token: await token() }),
      upload: async (fileName: string, content: Uint8Array | string, mediaType = '') =>
        unary(
          client,
          client.upload,
          { fileName, mediaType, content: typeof content === 'string' ? Buffer.from(content) : Buffer.from(content) },
          // As long as the gateway gives an upload: reading a file takes a process of its own.
          { token: await token(), timeoutMs: 30_000 },
        ),
      proposeOcclusions: async (picture: Uint8Array, language = '') =>
        unary(
          client,
          client.proposeOcclusions,
          { picture: Buffer.from(picture), mediaType: 'image/png', language },
          { token: await token(), timeoutMs: 30_000 },
        ),
      /** Every event of one generation, in order; a failure is thrown after the events before it. */
      async generate(
        request: Partial<aiProto.GenerateRequest>,
        onEvent?: (event: aiProto.GenerateEvent) => void,
        signal?: AbortSignal,
      ) {
        const events: aiProto.GenerateEvent[] = [];
        const stream = serverStream(client, client.generate, aiProto.GenerateRequest.fromPartial(request), {
          token: await token(),
          timeoutMs: 60_000,
          signal,
        });
        for await (const event of stream) {
          events.push(event);
          onEvent?.(event);
        }
        return summary(events);
      },
      /** Creates cards in the learner's collection (the cards service, as the learner). */
      async createCards(fronts: string[]) {
        await unary(
          cardsClient,
          cardsClient.createCards,
          {
            cards: fronts.map((front) => ({
              front,
              back: 'an answer',
              type: 'basic',
              tagIds: [],
              noteTypeId: '',
              fieldValues: [],
            })),
            idempotencyKey: randomUUID(),
          },
          { token: await cards.tokenFor(userId) },
        );
      },
    };
  }

  return {
    as,
    bedrock,
    db: ai.resources.db,
    events: ai.events,
    /** Takes billing down (as an outage would), for good: the harness's stop() leaves it be. */
    async stopBilling() {
      billingStopped = true;
      await billing.stop();
    },
    async stop() {
      await ai.stop();
      await bedrock?.stop();
      if (!billingStopped) await billing.stop();
      await cards.stop();
    },
  };
}

export function summary(events: aiProto.GenerateEvent[]) {
  const proposals: aiProto.Proposal[] = [];
  let started: aiProto.GenerationStarted | undefined;
  let finished: aiProto.GenerationFinished | undefined;
  for (const { event } of events) {
    if (event?.$case === 'started') started = event.value;
    if (event?.$case === 'proposal') proposals.push(event.value);
    if (event?.$case === 'finished') finished = event.value;
  }
  return { events, started, proposals, finished };
}

export type AiHarness = Awaited<ReturnType<typeof startAiHarness>>;

/** A well-formed card as a model would propose it. */
export function modelCard(n: number, overrides: Record<string, unknown> = {}) {
  return {
    type: 'basic',
    front: `What does rule ${n} of the notes say?`,
    back: `Rule ${n} says something worth remembering.`,
    tags: ['Rules'],
    sourceQuote: `Rule ${n}: something worth remembering.`,
    ...overrides,
  };
}
