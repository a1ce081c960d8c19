// The identity HTTP server: better-auth's handler at /api/auth/*, nothing else. The gateway proxies
// browser requests here.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '@engram/kit/logger';
import { toNodeHandler } from 'better-auth/node';
import { AUTH_BASE_PATH, type Auth } from '../auth.js';

export async function startAuthHttpServer(auth: Auth, port: number, logger: Logger) {
  const handle = toNodeHandler(auth);
  const server: Server = createServer((req, res) => {
    if (req.url?.startsWith(`${AUTH_BASE_PATH}/`)) {
      handle(req, res).catch((error: unknown) => {
        logger.error({ err: error }, 'auth request failed');
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ code: 'INTERNAL_ERROR', message: 'Something went wrong!' }));
      });
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'NOT_FOUND' }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '0.0.0.0', resolve);
  });
  logger.info({ port: (server.address() as AddressInfo).port }, 'auth HTTP server listening');
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
