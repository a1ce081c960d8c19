// Registers the cards service's gRPC services: cards and tags, practice, metrics and settings.
import { implement, type ServerOptions } from '@engram/kit/grpc/server';
import { CardsServiceService } from '@engram/proto/cards/v1/cards';
import { MetricsServiceService } from '@engram/proto/cards/v1/metrics';
import { ReviewServiceService } from '@engram/proto/cards/v1/review';
import { SettingsServiceService } from '@engram/proto/cards/v1/settings';
import type { Stores } from './db.js';
import { archiveCard } from './handlers/ArchiveCard.js';
import { createCard } from './handlers/CreateCard.js';
import { createCards } from './handlers/CreateCards.js';
import { deleteCard } from './handlers/DeleteCard.js';
import { listCards } from './handlers/ListCards.js';
import { listDue } from './handlers/ListDue.js';
import { progressMetrics, reviewMetrics, streak } from './handlers/metrics.js';
import { review } from './handlers/Review.js';
import { getSettings, updateSettings } from './handlers/settings.js';
import { createTag, deleteTag, listTags, renameTag } from './handlers/tags.js';
import { undoReview } from './handlers/UndoReview.js';
import { updateCard } from './handlers/UpdateCard.js';

export function cardsServices(stores: Stores, options: ServerOptions) {
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
        { getSettings: { handle: getSettings(stores) }, updateSettings: { handle: updateSettings(stores) } },
        options,
      ),
    },
  ];
}
