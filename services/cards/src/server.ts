// Registers the cards service's gRPC services: cards and tags, practice, metrics, settings (with their presets'
// optimizations), Browse (Anki's search, bulk edits, saved searches, duplicates), card files, imports and exports,
// and AnkiConnect's actions.
import { Unavailable } from '@engram/kit/errors';
import { implement, type ServerOptions } from '@engram/kit/grpc/server';
import { AnkiConnectServiceService } from '@engram/proto/cards/v1/anki_connect';
import { BrowseServiceService } from '@engram/proto/cards/v1/browse';
import { CardsServiceService } from '@engram/proto/cards/v1/cards';
import { ExportServiceService } from '@engram/proto/cards/v1/exports';
import { ImportServiceService } from '@engram/proto/cards/v1/imports';
import { MediaServiceService } from '@engram/proto/cards/v1/media';
import { MetricsServiceService } from '@engram/proto/cards/v1/metrics';
import { ReviewServiceService } from '@engram/proto/cards/v1/review';
import { SettingsServiceService } from '@engram/proto/cards/v1/settings';
import type { AnkiConnectDeps } from './anki-connect/notes-add.js';
import { browseCards, countCards } from './browse/browse-cards.js';
import { bulkEdit, undoBulkEdit } from './browse/bulk-edit.js';
import { findDuplicates } from './browse/duplicates.js';
import { deleteSavedSearch, listSavedSearches, saveSearch } from './browse/saved-searches.js';
import { type Computes, createComputes } from './compute/compute-pool.js';
import type { Stores } from './db.js';
import type { ExportServiceDeps } from './exports/export-deps.js';
import { act } from './handlers/anki-connect.js';
import { archiveCard } from './handlers/archive-card.js';
import { createCard } from './handlers/create-card.js';
import { createCards } from './handlers/create-cards.js';
import { createTag } from './handlers/create-tag.js';
import { createUpload } from './handlers/create-upload.js';
import { deleteCard } from './handlers/delete-card.js';
import { deleteMedia } from './handlers/delete-media.js';
import { deleteTag } from './handlers/delete-tag.js';
import { finishUpload } from './handlers/finish-upload.js';
import { getExport } from './handlers/get-export.js';
import { getImport } from './handlers/get-import.js';
import { getOptimization } from './handlers/get-optimization.js';
import { getSettings } from './handlers/get-settings.js';
import { listCards } from './handlers/list-cards.js';
import { listDue } from './handlers/list-due.js';
import { listExports } from './handlers/list-exports.js';
import { listImports } from './handlers/list-imports.js';
import { listMedia } from './handlers/list-media.js';
import { listOffline } from './handlers/list-offline.js';
import { listTags } from './handlers/list-tags.js';
import { createNoteType, deleteNoteType, listNoteTypes, updateNoteType } from './handlers/note-types.js';
import { openMedia } from './handlers/open-media.js';
import { optimize } from './handlers/optimize.js';
import { createPreset, deletePreset, updatePreset } from './handlers/presets.js';
import { previewImport } from './handlers/preview-import.js';
import { progressMetrics } from './handlers/progress-metrics.js';
import { renameTag } from './handlers/rename-tag.js';
import { previewReschedule, reschedule } from './handlers/reschedule.js';
import { review } from './handlers/review.js';
import { reviewMetrics } from './handlers/review-metrics.js';
import { recommendRetention, simulate } from './handlers/simulate.js';
import { startExport } from './handlers/start-export.js';
import { startImport } from './handlers/start-import.js';
import { streak } from './handlers/streak.js';
import { syncReviews } from './handlers/sync-reviews.js';
import { undoReview } from './handlers/undo-review.js';
import { updateCard } from './handlers/update-card.js';
import { updateSettings } from './handlers/update-settings.js';
import type { ImportServiceDeps } from './imports/import-deps.js';
import type { MediaDeps } from './media/media-deps.js';

/** What queues the settings' optimizations (the work queue's cards.optimizations). */
export interface SettingsJobs {
  enqueueOptimization: (id: string) => Promise<void>;
}

/**
 * The services; MediaService, ImportService, ExportService and AnkiConnectService with `files` (main.ts always gives them; a test
 * or benchmark of other services may not). Without `files`, an optimization is refused as unavailable. Long CPU
 * work and uploaded files are worked on in `computes`' child processes (compute/compute-pool.ts).
 */
export function cardsServices(
  stores: Stores,
  options: ServerOptions,
  files?: Omit<ImportServiceDeps, 'db' | 'fileChecks'> &
    Omit<ExportServiceDeps, 'db'> &
    SettingsJobs &
    Pick<AnkiConnectDeps, 'fetchUrl'>,
  computes: Computes = createComputes(options.logger),
) {
  const compute = computes.forecasts;
  const enqueueOptimization =
    files?.enqueueOptimization ??
    (() => Promise.reject(new Unavailable('Optimizations are not run here.', 'OPTIMIZATIONS_UNAVAILABLE')));
  return [
    {
      name: 'engram.cards.v1.CardsService',
      definition: CardsServiceService,
      implementation: implement(
        CardsServiceService,
        {
          createCard: { handle: createCard(stores) },
          createCards: { handle: createCards(stores) },
          updateCard: { handle: updateCard(stores) },
          archiveCard: { handle: archiveCard(stores) },
          deleteCard: { handle: deleteCard(stores) },
          listCards: { handle: listCards(stores) },
          listTags: { handle: listTags(stores) },
          createTag: { handle: createTag(stores) },
          renameTag: { handle: renameTag(stores) },
          deleteTag: { handle: deleteTag(stores) },
          listNoteTypes: { handle: listNoteTypes(stores) },
          createNoteType: { handle: createNoteType(stores) },
          updateNoteType: { handle: updateNoteType(stores) },
          deleteNoteType: { handle: deleteNoteType(stores) },
        },
        options,
      ),
    },
    {
      name: 'engram.cards.v1.BrowseService',
      definition: BrowseServiceService,
      implementation: implement(
        BrowseServiceService,
        {
          browseCards: { handle: browseCards(stores) },
          countCards: { handle: countCards(stores) },
          bulkEdit: { handle: bulkEdit(stores) },
          undoBulkEdit: { handle: undoBulkEdit(stores) },
          listSavedSearches: { handle: listSavedSearches(stores) },
          saveSearch: { handle: saveSearch(stores) },
          deleteSavedSearch: { handle: deleteSavedSearch(stores) },
          findDuplicates: { handle: findDuplicates(stores) },
        },
        options,
      ),
    },
    {
      name: 'engram.cards.v1.ReviewService',
      definition: ReviewServiceService,
      implementation: implement(
        ReviewServiceService,
        {
          listDue: { handle: listDue(stores) },
          review: { handle: review(stores) },
          undoReview: { handle: undoReview(stores) },
          syncReviews: { handle: syncReviews(stores) },
          listOffline: { handle: listOffline(stores) },
        },
        options,
      ),
    },
    {
      name: 'engram.cards.v1.MetricsService',
      definition: MetricsServiceService,
      implementation: implement(
        MetricsServiceService,
        {
          progressMetrics: { handle: progressMetrics(stores) },
          streak: { handle: streak(stores) },
          reviewMetrics: { handle: reviewMetrics(stores) },
        },
        options,
      ),
    },
    {
      name: 'engram.cards.v1.SettingsService',
      definition: SettingsServiceService,
      implementation: implement(
        SettingsServiceService,
        {
          getSettings: { handle: getSettings(stores) },
          updateSettings: { handle: updateSettings(stores) },
          optimize: { handle: optimize(stores, enqueueOptimization) },
          getOptimization: { handle: getOptimization(stores) },
          simulate: { handle: simulate(stores, compute) },
          recommendRetention: { handle: recommendRetention(stores, compute) },
          createPreset: { handle: createPreset(stores) },
          updatePreset: { handle: updatePreset(stores) },
          deletePreset: { handle: deletePreset(stores) },
          previewReschedule: { handle: previewReschedule(stores, compute) },
          reschedule: { handle: reschedule(stores, compute) },
        },
        options,
      ),
    },
    ...(files
      ? [
          mediaService({ db: stores.db, ...files, fileChecks: computes.fileChecks }, options),
          importService({ db: stores.db, ...files, fileChecks: computes.fileChecks }, options),
          exportService({ db: stores.db, ...files }, options),
          ankiConnectService(
            {
              stores,
              media: { db: stores.db, ...files, fileChecks: computes.fileChecks },
              fetchUrl: files.fetchUrl,
            },
            options,
          ),
        ]
      : []),
  ];
}

function mediaService(mediaDeps: MediaDeps, options: ServerOptions) {
  return {
    name: 'engram.cards.v1.MediaService',
    definition: MediaServiceService,
    implementation: implement(
      MediaServiceService,
      {
        createUpload: { handle: createUpload(mediaDeps) },
        finishUpload: { handle: finishUpload(mediaDeps) },
        listMedia: { handle: listMedia(mediaDeps) },
        deleteMedia: { handle: deleteMedia(mediaDeps) },
        openMedia: { handle: openMedia(mediaDeps) },
      },
      options,
    ),
  };
}

function importService(importDeps: ImportServiceDeps, options: ServerOptions) {
  return {
    name: 'engram.cards.v1.ImportService',
    definition: ImportServiceService,
    implementation: implement(
      ImportServiceService,
      {
        previewImport: { handle: previewImport(importDeps) },
        startImport: { handle: startImport(importDeps) },
        getImport: { handle: getImport(importDeps) },
        listImports: { handle: listImports(importDeps) },
      },
      options,
    ),
  };
}

function exportService(exportDeps: ExportServiceDeps, options: ServerOptions) {
  return {
    name: 'engram.cards.v1.ExportService',
    definition: ExportServiceService,
    implementation: implement(
      ExportServiceService,
      {
        startExport: { handle: startExport(exportDeps) },
        getExport: { handle: getExport(exportDeps) },
        listExports: { handle: listExports(exportDeps) },
      },
      options,
    ),
  };
}

function ankiConnectService(deps: AnkiConnectDeps, options: ServerOptions) {
  return {
    name: 'engram.cards.v1.AnkiConnectService',
    definition: AnkiConnectServiceService,
    implementation: implement(AnkiConnectServiceService, { act: { handle: act(deps) } }, options),
  };
}
