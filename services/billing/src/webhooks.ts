// The billing HTTP server, where the gateway proxies Stripe webhooks (raw body). Until billing is
// built and Stripe keys are configured it answers honestly that billing is disabled.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '@engram/kit/logger';

export const WEBHOOK_PATH = '/api/webhooks/stripe';

export async function startWebhookServer(port: number, logger: Logger) {
  const server = createServer((req, res) => {
    const json = (status: number, body: object) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.url?.split('?')[0] !== WEBHOOK_PATH) return json(404, { code: 'NOT_FOUND' });
    if (req.method !== 'POST') return json(405, { code: 'METHOD_NOT_ALLOWED' });
    logger.warn('Stripe webhook received while billing is disabled');
    return json(503, { code: 'BILLING_DISABLED', message: 'Billing is disabled: no Stripe keys are configured.' });
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
