// The billing service's parts: its database, its HTTP server (Stripe's webhooks, and the Stripe stand-in
// when there are no keys) started before the Stripe client that may point at it, the plans catalogue, and
// its events. runService boots and stops them in its order (docs/architecture.md#boot-and-shutdown).
import { warmDatabase } from '@engram/kit/db';
import { serviceNameOf } from '@engram/kit/grpc/service-name';
import { runService, serviceRuntime } from '@engram/kit/service';
import { BillingServiceService } from '@engram/proto/billing/v1/billing';
import { createCatalogue } from './catalogue.js';
import { readConfig } from './config.js';
import { createDb } from './db.js';
import { billingEvents } from './events/index.js';
import { billingService } from './server.js';
import { createStripeAccess } from './stripe-client.js';
import { createWebhookHandler } from './webhook-events.js';
import { startBillingHttp, type WebhookRoutes } from './webhook-http.js';

const config = readConfig();
const runtime = serviceRuntime(serviceNameOf(BillingServiceService), config);
const { logger } = runtime;

const db = createDb(config.DATABASE_URL, logger);
const routes: WebhookRoutes = {};
const http = await startBillingHttp(config.HTTP_PORT, routes, logger);
const { stripe, webhookSecret, standIn } = await createStripeAccess(config, http.port, logger);
routes.standIn = standIn;
routes.webhook = createWebhookHandler({ db, stripe, webhookSecret, prices: config.prices, logger });
const catalogue = createCatalogue(stripe, config.prices, config.BILLING_PRICE_CACHE_SECONDS, logger);

await runService(runtime, {
  warmUp: () => warmDatabase(db),
  services: [
    billingService({ db, stripe, config, catalogue }, { ...runtime.serverOptions, version: config.SERVICE_VERSION }),
  ],
  events: billingEvents(db, stripe, logger),
  close: [
    { name: 'billing http', run: () => http.close() },
    { name: 'database', run: () => db.$disconnect() },
  ],
});
