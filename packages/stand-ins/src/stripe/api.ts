// The stand-in's part of Stripe's HTTP API: what Engram calls, answered in Stripe's shapes (form-encoded
// requests with bracketed keys, JSON answers, `{error: {type, message}}` failures, a bearer secret key,
// and Idempotency-Key: a POST repeated with the same key and parameters gets the first answer, and with
// other parameters an idempotency error). Tests may make a request fail as Stripe can, or hold its answer
// back as a slow network would (`intercept`).
import type { IncomingMessage, ServerResponse } from 'node:http';
import qs from 'qs';
import { type StandInEvent, StripeApiError } from './objects.js';
import type { StandInStore } from './store.js';

type Json = Record<string, unknown>;
type Outcome = { object: Json; events: StandInEvent[] };

export interface ApiContext {
  store: StandInStore;
  checkoutUrl(id: string): string;
  portalUrl(id: string): string;
  /** Hands the events of a change to webhook delivery and saves the state. */
  changed(events: StandInEvent[]): void;
  /**
   * What a test asked for this request: a failure to answer instead, or a wait before the answer (made
   * on arrival, so it says what Stripe had then) goes out.
   */
  intercept?(method: string, path: string): { fail?: StripeApiError; hold?: Promise<void> } | undefined;
}

const ROUTES: [string, RegExp, (ctx: ApiContext, params: Json, id: string) => Json | Outcome][] = [
  ['GET', /^\/v1\/prices\/([^/]+)$/, (ctx, _params, id) => ctx.store.price(id) as unknown as Json],
  ['POST', /^\/v1\/customers$/, (ctx, params) => ctx.store.createCustomer(params)],
  ['GET', /^\/v1\/customers\/([^/]+)$/, (ctx, _params, id) => ctx.store.customer(id)],
  ['DELETE', /^\/v1\/customers\/([^/]+)$/, (ctx, _params, id) => ctx.store.deleteCustomer(id)],
  ['POST', /^\/v1\/checkout\/sessions$/, (ctx, params) => ctx.store.createCheckoutSession(params, ctx.checkoutUrl)],
  ['GET', /^\/v1\/checkout\/sessions\/([^/]+)$/, (ctx, _params, id) => ctx.store.session(id)],
  ['POST', /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/, (ctx, _params, id) => ctx.store.expireCheckout(id)],
  ['GET', /^\/v1\/subscriptions\/([^/]+)$/, (ctx, _params, id) => ctx.store.subscription(id)],
  ['POST', /^\/v1\/subscriptions\/([^/]+)$/, (ctx, params, id) => ctx.store.updateSubscription(id, params)],
  ['DELETE', /^\/v1\/subscriptions\/([^/]+)$/, (ctx, _params, id) => ctx.store.cancelThroughApi(id)],
  ['GET', /^\/v1\/invoice_payments$/, (ctx, params) => ctx.store.invoicePayments(params)],
  ['POST', /^\/v1\/refunds$/, (ctx, params) => ctx.store.refund(params)],
  ['POST', /^\/v1\/billing_portal\/sessions$/, (ctx, params) => ctx.store.createPortalSession(params, ctx.portalUrl)],
];

export async function readBody(req: IncomingMessage, limit = 1_000_000): Promise<string> {
  let body = '';
  for await (const chunk of req) {
    body += chunk;
    if (body.length > limit) throw new StripeApiError(413, 'Request body too large.');
  }
  return body;
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${Date.now()}` });
  res.end(JSON.stringify(body));
}

function sendError(res: ServerResponse, error: StripeApiError) {
  const { status, type, code, message, param } = error;
  send(res, status, { error: { type, code, message, param } });
}

/** Stripe's answer to a key used again for another request. */
function keyReused(key: string) {
  return new StripeApiError(
    400,
    `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
    undefined,
    { type: 'idempotency_error', code: undefined },
  );
}

export function createApi(ctx: ApiContext) {
  const answered = new Map<string, { request: string; status: number; body: unknown }>();
  return async function handleApi(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    try {
      const key = /^Bearer (sk_test_\S+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (!key) throw new StripeApiError(401, 'Invalid API Key provided: use a test secret key (sk_test_…).');
      const method = req.method ?? 'GET';
      const idempotencyKey = method === 'POST' ? req.headers['idempotency-key']?.toString() : undefined;
      const [, query = ''] = (req.url ?? '').split('?');
      const body = await readBody(req);
      const request = `${path}?${query}\n${body}`;
      const repeated = idempotencyKey ? answered.get(`${key}\n${idempotencyKey}`) : undefined;
      if (repeated && repeated.request !== request) throw keyReused(idempotencyKey ?? '');
      if (repeated) return send(res, repeated.status, repeated.body);
      const params = { ...qs.parse(query), ...qs.parse(body) } as Json;
      const intercepted = ctx.intercept?.(method, path);
      if (intercepted?.fail) throw intercepted.fail;
      for (const [routeMethod, pattern, run] of ROUTES) {
        const match = pattern.exec(path);
        if (!match || routeMethod !== method) continue;
        const result = run(ctx, params, decodeURIComponent(match[1] ?? ''));
        const object = 'events' in result ? (result as Outcome).object : result;
        if ('events' in result) ctx.changed((result as Outcome).events);
        if (idempotencyKey) answered.set(`${key}\n${idempotencyKey}`, { request, status: 200, body: object });
        if (!intercepted?.hold) return send(res, 200, object);
        const then = structuredClone(object);
        await intercepted.hold;
        return send(res, 200, then);
      }
      throw new StripeApiError(404, `Unrecognized request URL (${method}: ${path}).`);
    } catch (error) {
      if (error instanceof StripeApiError) return sendError(res, error);
      throw error;
    }
  };
}
