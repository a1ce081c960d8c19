// The gateway's tRPC router at /api/trpc, one sub-router per domain. The web app imports its type.
import { aiRouter } from './routers/ai.js';
import { billingRouter } from './routers/billing.js';
import { browseRouter } from './routers/browse.js';
import { cardsRouter } from './routers/cards.js';
import { exportsRouter } from './routers/exports.js';
import { importsRouter } from './routers/imports.js';
import { mediaRouter } from './routers/media.js';
import { orgsRouter } from './routers/orgs.js';
import { settingsRouter } from './routers/settings.js';
import { router } from './trpc.js';

export const appRouter = router({
  ai: aiRouter,
  billing: billingRouter,
  browse: browseRouter,
  cards: cardsRouter,
  exports: exportsRouter,
  imports: importsRouter,
  media: mediaRouter,
  orgs: orgsRouter,
  settings: settingsRouter,
});

export type AppRouter = typeof appRouter;
export type { GenerationEvent } from './handlers/ai/generate.js';
export type { UsageJson } from './handlers/ai/json.js';
export type { CustomerJson } from './handlers/billing/customer.js';
export type { PlansJson } from './handlers/billing/plans.js';
export type { BrowseCard, BrowsePage } from './handlers/browse/browse.js';
export type { Card, DueItem, ItemState, Tag } from './handlers/cards/card-json.js';
export type { ExportJson } from './handlers/exports/json.js';
export type { ExportPage } from './handlers/exports/list.js';
export type { ImportJson } from './handlers/imports/json.js';
export type { ImportPage } from './handlers/imports/list.js';
export type { ImportPreviewJson } from './handlers/imports/preview.js';
export type { MediaJson } from './handlers/media/json.js';
export type { MediaPage } from './handlers/media/list.js';
export type { AssignmentJson, DeckJson, ProgressJson } from './handlers/orgs/json.js';
