// The cards service's gRPC services in-process (testkit's startServiceUnderTest), callable as any user
// with requests that may leave fields out.

import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventDefinition } from '@engram/contracts/events';
import { importFormatOf } from '@engram/contracts/imports';
import { unary } from '@engram/kit/grpc/client';
import { serviceJobs } from '@engram/kit/jobs/service-jobs';
import { createObjectStore, type ObjectStore } from '@engram/kit/storage';
import { generateStandInCredentials } from '@engram/kit/storage/stand-in-credentials';
import * as ankiConnectProto from '@engram/proto/cards/v1/anki_connect';
import * as browseProto from '@engram/proto/cards/v1/browse';
import * as cardsProto from '@engram/proto/cards/v1/cards';
import * as exportsProto from '@engram/proto/cards/v1/exports';
import * as importsProto from '@engram/proto/cards/v1/imports';
import * as mediaProto from '@engram/proto/cards/v1/media';
import * as metricsProto from '@engram/proto/cards/v1/metrics';
import * as reviewProto from '@engram/proto/cards/v1/review';
import * as settingsProto from '@engram/proto/cards/v1/settings';
import { EventEnvelope } from '@engram/proto/events/v1/envelope';
import { openS3StandIn } from '@engram/stand-ins/s3';
import { testContext } from '@engram/testkit/context';
import { startServiceUnderTest } from '@engram/testkit/service';
import type pg from 'pg';
import { fetchAnkiMedia } from '../src/anki-connect/media-files.js';
import { type ComputeLimits, createComputes, DEFAULT_COMPUTE_LIMITS } from '../src/compute/compute-pool.js';
import { closeStores, createStores } from '../src/db.js';
import { cardsEvents } from '../src/events/index.js';
import { EXPORTS_QUEUE } from '../src/exports/export-deps.js';
import { runExport } from '../src/exports/run-export.js';
import { IMPORTS_QUEUE } from '../src/imports/import-deps.js';
import { runImport } from '../src/imports/run-import.js';
import { unfinishedJobs } from '../src/jobs/job-row.js';
import type { Quota } from '../src/media/media-deps.js';
import { OPTIMIZATIONS_QUEUE, runOptimization } from '../src/optimizer/run-optimization.js';
import { cardsServices } from '../src/server.js';

type DeepPartial<T> = T extends Date
  ? T
  : T extends (infer U)[]
    ? DeepPartial<U>[]
    : T extends object
      ? { [K in keyof T]?: DeepPartial<T[K]> }
      : T;

export const CARDS_MIGRATIONS = new URL('../prisma/migrations', import.meta.url).pathname;

export interface CardsHarnessOptions {
  /** Run the service's events as main.ts does (relay, UserDeleted consumer), on this NATS or the run's. */
  events?: { natsUrl?: string };
  /** A database of the test's own (for tests that terminate every backend of it); the run's by default. */
  databaseUrl?: string;
  /** Run the work queue's jobs in this process, as main.ts runs them in theirs (default true). */
  jobs?: boolean;
}

/** The cards service's configuration the harness runs with where the tests do not set it. */
export const HARNESS_CONFIG = {
  IDEMPOTENCY_RETENTION_HOURS: 24,
  // Few, so a test reaches an automatic optimization in a handful of reviews.
  OPTIMIZE_EVERY_REVIEWS: 5,
  OPTIMIZE_MINIMUM_REVIEWS: 400,
};

/** The storage quota of every learner in the harness unless a test sets one for a learner (`quotas`). */
/**
 * A day start twelve hours from now: the learner's study day then ends half a day away, so a step minutes away
 * is always "later today" (at the default 04:00 UTC, a run in the minutes before it found the day over).
 */
export const dayStartHalfADayAway = () => (new Date().getUTCHours() + 12) % 24;

/**
 * The service's limits for its child processes, with time to spare: a child's time counts from its start, and
 * beside three CPU burners a card file's child (at its lower priority, loading its modules from TypeScript)
 * passed the service's 12 s before it had read a 100 KB clip. compute.test.ts tests the time limit itself.
 */
export const HARNESS_COMPUTE_LIMITS: ComputeLimits = { ...DEFAULT_COMPUTE_LIMITS, timeoutMs: 300_000 };

export const HARNESS_QUOTA: Quota = { plan: 'free', quotaBytes: 100 * 1024 * 1024 };

export async function startCardsHarness(options: CardsHarnessOptions = {}) {
  // Card files go to the S3 stand-in, in a directory of this harness's own; the plan's quota is the
  // harness's (billing's answer is billing's tests' and the gateway's), settable per learner.
  const storeDir = await mkdtemp(join(tmpdir(), 'engram-cards-media-'));
  const store: ObjectStore = await createObjectStore(
    {
      kind: 'stand-in',
      bucket: 'engram-media',
      region: 'us-east-1',
      dir: storeDir,
      port: 0,
      maxObjectBytes: 64 * 1024 * 1024,
      allowedOrigins: [],
      credentials: generateStandInCredentials(),
    },
    { nodeEnv: 'test', openStandIn: openS3StandIn },
  );
  const quotas = new Map<string, Quota>();
  // Imports run as in main.ts, on a work queue of this harness's own on the run's NATS.
  const context = testContext();
  const queueSuffix = randomUUID().slice(0, 8);
  const service = await startServiceUnderTest({
    service: 'cards',
    migrationsDir: CARDS_MIGRATIONS,
    ...(options.events && { events: options.events }),
    ...(options.databaseUrl && { databaseUrl: options.databaseUrl }),
    start({ databaseUrl, serverOptions, logger }) {
      const stores = createStores(databaseUrl, { logger });
      const jobs = serviceJobs({
        service: 'cards',
        natsUrl: context.natsUrl,
        settings: {
          streamName: `${context.streamName}_CARDS_JOBS_${queueSuffix}`,
          subjectPrefix: `${context.subjectPrefix}cards${queueSuffix}.`,
        },
        logger,
        queues: [
          {
            queue: IMPORTS_QUEUE,
            run: (id, { signal }) => runImport({ db: stores.db, pool: stores.pool, store, logger }, id, { signal }),
            unfinished: () => unfinishedJobs(stores.db, 'imports'),
            retryDelayMs: 200,
          },
          {
            queue: EXPORTS_QUEUE,
            run: (id, { signal }) => runExport({ stores, store, logger }, id, { signal }),
            unfinished: () => unfinishedJobs(stores.db, 'exports'),
            retryDelayMs: 200,
          },
          {
            queue: OPTIMIZATIONS_QUEUE,
            run: (id, { signal }) =>
              runOptimization({ stores, logger, minimumReviews: HARNESS_CONFIG.OPTIMIZE_MINIMUM_REVIEWS }, id, {
                signal,
              }),
            unfinished: () => unfinishedJobs(stores.db, 'optimizations'),
            retryDelayMs: 200,
          },
        ],
        recoverIntervalMs: 1_000,
      });
      // A test that runs jobs its own way (in their processes: job-bulkheads.test.ts) has none running here.
      if (options.jobs !== false) jobs.start();
      return {
        services: cardsServices(
          stores,
          serverOptions,
          {
            store,
            quotaOf: async (ctx) => quotas.get(ctx.caller.userId) ?? HARNESS_QUOTA,
            enqueueImport: (id) => jobs.enqueue(IMPORTS_QUEUE, id),
            enqueueExport: (id) => jobs.enqueue(EXPORTS_QUEUE, id),
            enqueueOptimization: (id) => jobs.enqueue(OPTIMIZATIONS_QUEUE, id),
            // The tests' files are served on this machine.
            fetchUrl: fetchAnkiMedia({ allowPrivate: true }),
          },
          createComputes(logger, HARNESS_COMPUTE_LIMITS),
        ),
        resources: stores,
        ...(options.events && { events: cardsEvents(stores.db, HARNESS_CONFIG) }),
        close: async () => {
          await jobs.stop();
          await closeStores(stores);
          await store.close();
          await rm(storeDir, { recursive: true, force: true });
        },
      };
    },
  });
  const client = service.client(cardsProto.CardsServiceClient);
  const reviews = service.client(reviewProto.ReviewServiceClient);
  const metrics = service.client(metricsProto.MetricsServiceClient);
  const settings = service.client(settingsProto.SettingsServiceClient);
  const media = service.client(mediaProto.MediaServiceClient);
  const imports = service.client(importsProto.ImportServiceClient);
  const exports = service.client(exportsProto.ExportServiceClient);
  const ankiConnect = service.client(ankiConnectProto.AnkiConnectServiceClient);
  const browse = service.client(browseProto.BrowseServiceClient);

  /** Every procedure of the service, called as `userId`. */
  function as(userId: string) {
    const call =
      <Req, Res>(
        target: Parameters<typeof unary>[0],
        method: Parameters<typeof unary<Req, Res>>[1],
        message: { fromPartial(value: never): Req },
      ) =>
      async (request: DeepPartial<Req> = {} as DeepPartial<Req>) =>
        unary<Req, Res>(target, method, message.fromPartial(request as never), {
          token: await service.tokenFor(userId),
          // Tests state behaviour, not speed (bench/ measures that): a cold 500-card create may take longer
          // than the gateway's 2 s on a busy machine, and a card file's check waits for its child (above).
          timeoutMs: 120_000,
        });
    return {
      // As the gateway does, a create without a key gets a fresh one.
      createCard: (request: DeepPartial<cardsProto.CreateCardRequest> = {}) =>
        call(client, client.createCard, cardsProto.CreateCardRequest)({ idempotencyKey: randomUUID(), ...request }),
      createCards: (request: DeepPartial<cardsProto.CreateCardsRequest> = {}) =>
        call(client, client.createCards, cardsProto.CreateCardsRequest)({ idempotencyKey: randomUUID(), ...request }),
      updateCard: call(client, client.updateCard, cardsProto.UpdateCardRequest),
      archiveCard: call(client, client.archiveCard, cardsProto.ArchiveCardRequest),
      deleteCard: call(client, client.deleteCard, cardsProto.DeleteCardRequest),
      listCards: call(client, client.listCards, cardsProto.ListCardsRequest),
      listTags: call(client, client.listTags, cardsProto.ListTagsRequest),
      createTag: call(client, client.createTag, cardsProto.CreateTagRequest),
      renameTag: call(client, client.renameTag, cardsProto.RenameTagRequest),
      deleteTag: call(client, client.deleteTag, cardsProto.DeleteTagRequest),
      listNoteTypes: call(client, client.listNoteTypes, cardsProto.ListNoteTypesRequest),
      createNoteType: call(client, client.createNoteType, cardsProto.NoteTypeRequest),
      updateNoteType: call(client, client.updateNoteType, cardsProto.NoteTypeRequest),
      deleteNoteType: call(client, client.deleteNoteType, cardsProto.DeleteNoteTypeRequest),
      listDue: call(reviews, reviews.listDue, reviewProto.ListDueRequest),
      review: call(reviews, reviews.review, reviewProto.ReviewRequest),
      undoReview: call(reviews, reviews.undoReview, reviewProto.UndoReviewRequest),
      syncReviews: call(reviews, reviews.syncReviews, reviewProto.SyncReviewsRequest),
      listOffline: call(reviews, reviews.listOffline, reviewProto.ListOfflineRequest),
      progressMetrics: call(metrics, metrics.progressMetrics, metricsProto.ProgressMetricsRequest),
      streak: call(metrics, metrics.streak, metricsProto.StreakRequest),
      reviewMetrics: call(metrics, metrics.reviewMetrics, metricsProto.ReviewMetricsRequest),
      getSettings: call(settings, settings.getSettings, settingsProto.GetSettingsRequest),
      updateSettings: call(settings, settings.updateSettings, settingsProto.UpdateSettingsRequest),
      optimize: call(settings, settings.optimize, settingsProto.OptimizeRequest),
      getOptimization: call(settings, settings.getOptimization, settingsProto.GetOptimizationRequest),
      simulate: call(settings, settings.simulate, settingsProto.SimulateRequest),
      recommendRetention: call(settings, settings.recommendRetention, settingsProto.RecommendRetentionRequest),
      createPreset: call(settings, settings.createPreset, settingsProto.PresetRequest),
      updatePreset: call(settings, settings.updatePreset, settingsProto.PresetRequest),
      deletePreset: call(settings, settings.deletePreset, settingsProto.DeletePresetRequest),
      previewReschedule: call(settings, settings.previewReschedule, settingsProto.RescheduleRequest),
      reschedule: call(settings, settings.reschedule, settingsProto.RescheduleRequest),
      createUpload: call(media, media.createUpload, mediaProto.CreateUploadRequest),
      finishUpload: call(media, media.finishUpload, mediaProto.FinishUploadRequest),
      listMedia: call(media, media.listMedia, mediaProto.ListMediaRequest),
      deleteMedia: call(media, media.deleteMedia, mediaProto.DeleteMediaRequest),
      openMedia: call(media, media.openMedia, mediaProto.OpenMediaRequest),
      previewImport: call(imports, imports.previewImport, importsProto.PreviewImportRequest),
      startImport: call(imports, imports.startImport, importsProto.StartImportRequest),
      getImport: call(imports, imports.getImport, importsProto.GetImportRequest),
      listImports: call(imports, imports.listImports, importsProto.ListImportsRequest),
      startExport: call(exports, exports.startExport, exportsProto.StartExportRequest),
      getExport: call(exports, exports.getExport, exportsProto.GetExportRequest),
      listExports: call(exports, exports.listExports, exportsProto.ListExportsRequest),
      browseCards: call(browse, browse.browseCards, browseProto.BrowseCardsRequest),
      countCards: call(browse, browse.countCards, browseProto.CountCardsRequest),
      bulkEdit: call(browse, browse.bulkEdit, browseProto.BulkEditRequest),
      undoBulkEdit: call(browse, browse.undoBulkEdit, browseProto.UndoBulkEditRequest),
      listSavedSearches: call(browse, browse.listSavedSearches, browseProto.ListSavedSearchesRequest),
      saveSearch: call(browse, browse.saveSearch, browseProto.SaveSearchRequest),
      deleteSavedSearch: call(browse, browse.deleteSavedSearch, browseProto.DeleteSavedSearchRequest),
      findDuplicates: call(browse, browse.findDuplicates, browseProto.FindDuplicatesRequest),
      act: call(ankiConnect, ankiConnect.act, ankiConnectProto.ActRequest),
      /** An AnkiConnect action's result, its params given as the tools send them. */
      anki: async (action: string, params: Record<string, unknown> = {}): Promise<unknown> => {
        const { resultJson } = await call(
          ankiConnect,
          ankiConnect.act,
          ankiConnectProto.ActRequest,
        )({
          action,
          paramsJson: JSON.stringify(params),
        });
        return JSON.parse(resultJson);
      },
    };
  }

  return {
    databaseUrl: service.databaseUrl,
    events: service.events,
    db: service.resources.db,
    pool: service.resources.pool,
    signer: service.signer,
    tokenFor: service.tokenFor,
    as,
    store,
    /** Sends `bytes` as a browser would (the presigned PUT) and keeps it as `userId`'s card file. */
    async keepFile(userId: string, name: string, contentType: string, bytes: Buffer) {
      const slot = await as(userId).createUpload({ name, size: bytes.length, contentType, purpose: 'card' });
      const put = await fetch(slot.url, { method: 'PUT', headers: slot.headers, body: bytes });
      if (!put.ok) throw new Error(`the store refused the upload: ${put.status}`);
      return (await as(userId).finishUpload({ uploadId: slot.uploadId })).media!;
    },
    /**
     * A file `ownerId` sent for import (its upload, as the presigned PUT leaves it) and the import of it, queued as
     * StartImport queues it but not rung: a test runs the job itself (runImport).
     */
    async queueImport(ownerId: string, content: Buffer | string, name: string, quotaBytes = HARNESS_QUOTA.quotaBytes) {
      const bytes = Buffer.from(content);
      const uploadId = randomUUID();
      const objectKey = `uploads/test/${uploadId}`;
      await store.putObject(objectKey, bytes, { contentType: 'application/octet-stream' });
      await service.resources.db.upload.create({
        data: {
          id: uploadId,
          ownerId,
          purpose: 'import',
          name,
          size: BigInt(bytes.length),
          contentType: 'application/octet-stream',
          objectKey,
          expiresAt: new Date(Date.now() + 3_600_000),
        },
      });
      const format = importFormatOf(name) ?? 'csv';
      return service.resources.db.import.create({
        data: { ownerId, uploadId, name, format, quotaBytes: BigInt(quotaBytes) },
      });
    },
    /** Sends `bytes` as a browser would (the presigned PUT) as a file `userId` will import; its upload id. */
    async uploadToImport(userId: string, name: string, bytes: Buffer) {
      const slot = await as(userId).createUpload({ name, size: bytes.length, contentType: '', purpose: 'import' });
      const put = await fetch(slot.url, { method: 'PUT', headers: slot.headers, body: bytes });
      if (!put.ok) throw new Error(`the store refused the upload: ${put.status}`);
      return slot.uploadId;
    },
    /** The `event`s waiting in the outbox (published or not), each decoded from its envelope, with its headers. */
    async outboxEvents<T>(event: EventDefinition<T>): Promise<{ payload: T; headers: Record<string, unknown> }[]> {
      const { rows } = await service.resources.pool.query<{ payload: Buffer; headers: Record<string, unknown> }>(
        'SELECT payload, headers FROM outbox_events WHERE type = $1 ORDER BY seq',
        [event.subject],
      );
      return rows.map(({ payload, headers }) => ({
        payload: event.message.decode(EventEnvelope.decode(payload).payload),
        headers,
      }));
    },
    /** Sets the storage quota cards is told `userId`'s plan has. */
    setQuota: (userId: string, quota: Quota) => quotas.set(userId, quota),
    create: async (userId: string, front: string, back = 'back') =>
      (await as(userId).createCard({ front, back })).card!,
    list: (userId: string, request: DeepPartial<cardsProto.ListCardsRequest> = {}) => as(userId).listCards(request),
    client,
    stop: service.stop,
  };
}

/**
 * Writes `reviews` (items by their own ids, each made a uuid) to `ownerId`'s review log as logged reviews of
 * cards since deleted: what the optimizer learns from.
 */
export async function writeReviewLog(
  pool: pg.Pool,
  ownerId: string,
  reviews: { itemId: string; rating: number; stateBefore: number; reviewedAt: Date }[],
): Promise<void> {
  const items = new Map<string, string>();
  for (const review of reviews) if (!items.has(review.itemId)) items.set(review.itemId, randomUUID());
  await pool.query(
    `INSERT INTO review_logs (id, owner_id, item_id, card_id, rating, state_before, state_after, reviewed_at,
       duration_ms, elapsed_days, last_elapsed_days, scheduled_days, learning_step, due_after, previous, after)
     SELECT gen_random_uuid(), $1, item, item, rating, state_before, 2, reviewed_at, 5000, 0, 0, 1, 0,
       reviewed_at, '{}', '{}'
     FROM unnest($2::uuid[], $3::smallint[], $4::smallint[], $5::timestamptz[])
       AS r(item, rating, state_before, reviewed_at)`,
    [
      ownerId,
      reviews.map((review) => items.get(review.itemId)),
      reviews.map((review) => review.rating),
      reviews.map((review) => review.stateBefore),
      reviews.map((review) => review.reviewedAt),
    ],
  );
}

export type CardsHarness = Awaited<ReturnType<typeof startCardsHarness>>;
export type CardsCaller = ReturnType<CardsHarness['as']>;
