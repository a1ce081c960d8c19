// The billing service in-process against the Stripe stand-in (served, as under `npm start`, by billing's
// own HTTP server), with its events running: callable as any user, with helpers that pay on the
// stand-in's checkout page and deliver webhooks signed with Stripe's scheme by the real SDK.
import { unary } from '@engram/kit/grpc/client';
import * as billingProto from '@engram/proto/billing/v1/billing';
import type { StripeStandIn } from '@engram/stand-ins/stripe';
import { testContext } from '@engram/testkit/context';
import { startServiceUnderTest } from '@engram/testkit/service';
import Stripe from 'stripe';
import { createCatalogue } from '../src/catalogue.js';
import { readConfig } from '../src/config.js';
import { createDb } from '../src/db.js';
import { billingEvents } from '../src/events/index.js';
import { billingService } from '../src/server.js';
import { createStripeAccess } from '../src/stripe-client.js';
import { createWebhookHandler } from '../src/webhook-events.js';
import { startBillingHttp, WEBHOOK_PATH, type WebhookRoutes } from '../src/webhook-http.js';

export const BILLING_MIGRATIONS = new URL('../prisma/migrations', import.meta.url).pathname;

export interface BillingHarnessOptions {
  /** Environment variables over the harness's own. */
  env?: Record<string, string>;
  /** A database of the test's own (to see its backends alone in pg_stat_activity); the run's by default. */
  databaseUrl?: string;
}

export async function startBillingHarness(options: BillingHarnessOptions = {}) {
  let origin = '';
  let webhookSecret = '';
  const service = await startServiceUnderTest({
    service: 'billing',
    migrationsDir: BILLING_MIGRATIONS,
    ...(options.databaseUrl && { databaseUrl: options.databaseUrl }),
    events: {},
    async start({ databaseUrl, serverOptions, logger }) {
      const routes: WebhookRoutes = {};
      const http = await startBillingHttp(0, routes, logger);
      origin = `http://127.0.0.1:${http.port}`;
      const config = readConfig({
        NODE_ENV: 'test',
        // The harness verifies tokens itself (serverOptions); the variable only has to be present.
        INTERNAL_TOKEN_PUBLIC_KEYS: 'verified-by-the-harness',
        DATABASE_URL: databaseUrl,
        NATS_URL: testContext().natsUrl,
        PUBLIC_BASE_URL: origin,
        BILLING_PRICE_CACHE_SECONDS: '1',
        ...options.env,
      });
      const db = createDb(databaseUrl, logger);
      const access = await createStripeAccess(config, http.port, logger);
      webhookSecret = access.webhookSecret;
      routes.standIn = access.standIn;
      routes.webhook = createWebhookHandler({ db, ...access, prices: config.prices, logger });
      const catalogue = createCatalogue(access.stripe, config.prices, config.BILLING_PRICE_CACHE_SECONDS, logger);
      return {
        services: [
          billingService({ db, stripe: access.stripe, config, catalogue }, { ...serverOptions, version: 'test' }),
        ],
        resources: { db, stripe: access.stripe, standIn: access.standIn as StripeStandIn },
        events: billingEvents(db, access.stripe, logger) as never,
        async close() {
          await access.standIn?.delivered();
          await http.close();
          await db.$disconnect();
        },
      };
    },
  });
  const client = service.client(billingProto.BillingServiceClient);
  const { db, stripe, standIn } = service.resources;

  /** Every method of the service, called as `userId`. */
  function as(userId: string) {
    const call =
      <Req, Res>(method: Parameters<typeof unary<Req, Res>>[1], message: { fromPartial(value: never): Req }) =>
      async (request: Partial<Req> = {}) =>
        unary<Req, Res>(client, method, message.fromPartial(request as never), {
          token: await service.tokenFor(userId),
          // Tests state behaviour, not speed: a first checkout (the prices, a customer and a session read from
          // the stand-in) took longer than the kit's 2 s on a busy machine.
          timeoutMs: 15_000,
        });
    return {
      listPlans: call(client.listPlans, billingProto.ListPlansRequest),
      getCustomer: call(client.getCustomer, billingProto.GetCustomerRequest),
      createCheckout: call(client.createCheckout, billingProto.CreateCheckoutRequest),
      getCheckout: call(client.getCheckout, billingProto.GetCheckoutRequest),
      createPortal: call(client.createPortal, billingProto.CreatePortalRequest),
      getEntitlements: call(client.getEntitlements, billingProto.GetEntitlementsRequest),
      exportUserData: call(client.exportUserData, billingProto.ExportUserDataRequest),
    };
  }

  /** Posts a form to one of the stand-in's pages as a browser would; resolves with the answer. */
  const submit = (url: string, form: Record<string, string>) =>
    fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form),
    });

  /** Delivers `event` signed with `secret` (billing's by default) at `timestamp` (now by default). */
  async function deliver(event: object, options: { secret?: string; timestamp?: number; body?: string } = {}) {
    const payload = JSON.stringify(event);
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? webhookSecret,
      ...(options.timestamp !== undefined && { timestamp: options.timestamp }),
    });
    const response = await fetch(`${origin}${WEBHOOK_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      body: options.body ?? payload,
    });
    return { status: response.status, body: (await response.json()) as { outcome?: string; code?: string } };
  }

  return { as, db, stripe, standIn, submit, deliver, origin, events: service.events, stop: service.stop };
}

export type BillingHarness = Awaited<ReturnType<typeof startBillingHarness>>;
