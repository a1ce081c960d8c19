// Billing's HTTP server: Stripe's webhooks at WEBHOOK_PATH (the gateway proxies them with the raw body,
// which the signature covers) and, when billing runs against the stand-in, the stand-in's API and pages.
// A webhook is acknowledged only once its effect is committed: any failure answers 500 and Stripe
// delivers it again.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '@engram/kit/logger';
import type { StripeStandIn } from '@engram/stand-ins/stripe';

export const WEBHOOK_PATH = '/api/webhooks/stripe';
const MAX_WEBHOOK_BYTES = 1_000_000;

/** What handling a verified delivery did; `refused` is a bad signature or body (answered 400). */
export type WebhookOutcome = 'applied' | 'duplicate' | 'ignored' | { refused: string };

export interface WebhookRoutes {
  webhook?: (rawBody: Buffer, signature: string | undefined) => Promise<WebhookOutcome>;
  standIn?: StripeStandIn;
}

async function rawBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_WEBHOOK_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

const json = (res: ServerResponse, status: number, body: object) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

/** Listens at once; `routes` is filled in by the caller once the service is ready (503 until then). */
export async function startBillingHttp(port: number, routes: WebhookRoutes, logger: Logger) {
  async function handle(req: IncomingMessage, res: ServerResponse) {
    if (routes.standIn && (await routes.standIn.handle(req, res))) return;
    if (req.url?.split('?')[0] !== WEBHOOK_PATH) return json(res, 404, { code: 'NOT_FOUND' });
    if (req.method !== 'POST') return json(res, 405, { code: 'METHOD_NOT_ALLOWED' });
    if (!routes.webhook) return json(res, 503, { code: 'STARTING', message: 'Billing is starting.' });
    const body = await rawBody(req);
    if (!body) return json(res, 413, { code: 'PAYLOAD_TOO_LARGE', message: 'The webhook body is too large.' });
    const outcome = await routes.webhook(body, req.headers['stripe-signature']?.toString());
    if (typeof outcome === 'object') return json(res, 400, { code: 'INVALID_WEBHOOK', message: outcome.refused });
    json(res, 200, { received: true, outcome });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      logger.error({ err: error }, 'billing HTTP request failed');
      if (!res.headersSent) json(res, 500, { code: 'INTERNAL', message: 'Something went wrong!' });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '0.0.0.0', resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
