// A local stand-in for Stripe, for `npm start` without Stripe keys and for the tests: it speaks the part of
// Stripe's HTTP API Engram uses (api.ts), serves checkout and portal pages labelled as a stand-in
// (pages.ts), and delivers each change's events as webhooks signed with Stripe's scheme (by the real SDK),
// in order, retrying a delivery that fails. Tests can make API requests fail or answer late. Never used in
// production mode (billing's config refuses).
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '@engram/kit/logger';
import Stripe from 'stripe';
import { createApi } from './api.js';
import { emptyState, type StandInEvent, type StandInState, StripeApiError } from './objects.js';
import { handlePage } from './pages.js';
import { type PriceIdOf, standInPrices } from './prices.js';
import { StandInStore } from './store.js';

/** Where the pages live on the public site (the gateway proxies it to billing outside production). */
export const STAND_IN_PAGES_PATH = '/api/dev/stripe';
/** The secret key billing uses with the stand-in; the stand-in takes any test key. */
export const STAND_IN_SECRET_KEY = 'sk_test_engram_stand_in';

export interface StandInOptions {
  /** The origin browsers reach the pages at (the public base URL, or the stand-in's own in tests). */
  publicOrigin: string;
  /** Where the signed events go. */
  webhookUrl: string;
  webhookSecret: string;
  /** The id of each price in the catalogue: the ids billing uses against the stand-in. */
  priceId: PriceIdOf;
  /** A JSON file that keeps the state across restarts (npm start); in memory only without one. */
  stateFile?: string;
  logger?: Logger;
  /** Pauses between delivery attempts of one event, in ms; its length is the number of retries. */
  retryDelaysMs?: number[];
}

export interface Delivery {
  event: StandInEvent;
  status: number | 'failed';
}

export interface HeldAnswer {
  /** Resolves once the request has arrived and its answer is made. */
  reached: Promise<void>;
  /** Lets the answer go. */
  release(): void;
}

/** A Stripe error to answer with: `code` as Stripe names it, null for none (an unrecognized URL, a 500). */
export interface StandInFailure {
  status: number;
  message: string;
  code: string | null;
}

export interface StripeStandIn {
  /** Answers a request for the API (`/v1/…`) or a page; false when the path is neither. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  store: StandInStore;
  /** Every delivery attempt's final outcome, in order. */
  deliveries: Delivery[];
  /** Resolves once every event so far has been delivered (or given up). */
  delivered(): Promise<void>;
  /** Hands events to delivery as a change would (for tests that act on the store directly). */
  emit(events: StandInEvent[]): void;
  /**
   * Answers the next `times` API requests of `method` to a path matching `path` with `failure`, changing
   * nothing; `answered` resolves once the last of them has been answered so.
   */
  failNext(method: string, path: RegExp, failure: StandInFailure, times?: number): { answered: Promise<void> };
  /** Holds back the answer to the next API request of `method` to a path matching `path` until released. */
  holdNext(method: string, path: RegExp): HeldAnswer;
}

interface Interception {
  method: string;
  path: RegExp;
  times: number;
  fail?: StandInFailure & { answered(): void };
  hold?: { reached(): void; released: Promise<void> };
}

function loadState(file: string | undefined): StandInState {
  if (!file) return emptyState();
  try {
    return { ...emptyState(), ...(JSON.parse(readFileSync(file, 'utf8')) as StandInState) };
  } catch {
    return emptyState();
  }
}

export function createStripeStandIn(options: StandInOptions): StripeStandIn {
  const store = new StandInStore(Stripe.API_VERSION, standInPrices(options.priceId), loadState(options.stateFile));
  const retryDelaysMs = options.retryDelaysMs ?? [250, 500, 1000, 2000, 4000, 8000];
  const deliveries: Delivery[] = [];
  let queue = Promise.resolve();

  async function deliver(event: StandInEvent) {
    const payload = JSON.stringify(event);
    for (let attempt = 0; ; attempt += 1) {
      let status: number | 'failed' = 'failed';
      try {
        const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: options.webhookSecret });
        const response = await fetch(options.webhookUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'stripe-signature': signature },
          body: payload,
        });
        status = response.status;
        await response.arrayBuffer();
      } catch (error) {
        options.logger?.warn({ err: error, event: event.type }, 'stand-in webhook delivery failed');
      }
      const delay = retryDelaysMs[attempt];
      if ((typeof status === 'number' && status < 300) || delay === undefined) {
        deliveries.push({ event, status });
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }

  function save() {
    if (!options.stateFile) return;
    const temporary = `${options.stateFile}.tmp`;
    writeFileSync(temporary, JSON.stringify(store.state));
    renameSync(temporary, options.stateFile);
  }

  function emit(events: StandInEvent[]) {
    save();
    for (const event of events) queue = queue.then(() => deliver(event));
  }

  const interceptions: Interception[] = [];
  function intercept(method: string, path: string) {
    const rule = interceptions.find((candidate) => candidate.method === method && candidate.path.test(path));
    if (!rule) return undefined;
    rule.times -= 1;
    const last = rule.times === 0;
    if (last) interceptions.splice(interceptions.indexOf(rule), 1);
    if (rule.fail) {
      const { status, message, code } = rule.fail;
      if (last) rule.fail.answered();
      return { fail: new StripeApiError(status, message, undefined, { code: code ?? undefined }) };
    }
    rule.hold?.reached();
    return { hold: rule.hold?.released };
  }

  const pagesBase = `${options.publicOrigin.replace(/\/$/, '')}${STAND_IN_PAGES_PATH}`;
  const context = {
    store,
    changed: emit,
    intercept,
    checkoutUrl: (id: string) => `${pagesBase}/checkout/${id}`,
    portalUrl: (id: string) => `${pagesBase}/portal/${id}`,
  };
  const api = createApi(context);

  return {
    store,
    deliveries,
    emit,
    delivered: () => queue,
    failNext(method, path, failure, times = 1) {
      const answered = Promise.withResolvers<void>();
      interceptions.push({ method, path, times, fail: { ...failure, answered: answered.resolve } });
      return { answered: answered.promise };
    },
    holdNext(method, path) {
      const reached = Promise.withResolvers<void>();
      const released = Promise.withResolvers<void>();
      interceptions.push({ method, path, times: 1, hold: { reached: reached.resolve, released: released.promise } });
      return { reached: reached.promise, release: released.resolve };
    },
    async handle(req, res) {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      if (path.startsWith('/v1/')) {
        // What billing asked of "Stripe", for a developer reading the logs and for tests counting calls.
        options.logger?.debug({ method: req.method, path }, 'stand-in Stripe API request');
        await api(req, res, path);
        return true;
      }
      if (!path.startsWith(`${STAND_IN_PAGES_PATH}/`)) return false;
      return handlePage(context, req, res, path.slice(STAND_IN_PAGES_PATH.length));
    },
  };
}
