// The identity HTTP server: better-auth's handler at /api/auth/*, nothing else. The gateway proxies
// browser requests here. better-auth hands errors that are not its own answers on to us (onAPIError.throw):
// a database or Redis that cannot be reached for a moment (a restart, an outage) answers 503 with
// Retry-After, which the web app's auth client retries; anything else is a 500.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SERVICE_UNAVAILABLE_MESSAGE } from '@engram/contracts/trpc';
import { databaseUnreachable } from '@engram/kit/db';
import type { Logger } from '@engram/kit/logger';
import { toNodeHandler } from 'better-auth/node';
import { AUTH_BASE_PATH, type Auth } from '../auth.js';

// What ioredis says when Redis cannot be reached: its retries for a command ran out, or its connection is gone.
const REDIS_UNREACHABLE = /^(Connection is closed|Reached the max retries per request limit|Stream isn't writeable)/;

/** A failure that passes when the database or Redis is back: the caller's to try again, not a bug. */
export function briefOutage(error: unknown): boolean {
  if (databaseUnreachable(error)) return true;
  const found = error as { name?: unknown; message?: unknown; cause?: unknown } | null;
  if (!found || typeof found !== 'object') return false;
  if (found.name === 'MaxRetriesPerRequestError') return true;
  if (typeof found.message === 'string' && REDIS_UNREACHABLE.test(found.message)) return true;
  return found.cause !== undefined && found.cause !== error && briefOutage(found.cause);
}

export async function startAuthHttpServer(auth: Auth, port: number, logger: Logger) {
  const handle = toNodeHandler(auth);
  const server: Server = createServer((req, res) => {
    if (req.url?.startsWith(`${AUTH_BASE_PATH}/`)) {
      handle(req, res).catch((error: unknown) => {
        if (briefOutage(error)) {
          logger.warn({ err: error }, 'auth request failed: a store it needs cannot be reached; answered 503');
          if (!res.headersSent) res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
          res.end(JSON.stringify({ code: 'SERVICE_UNAVAILABLE', message: SERVICE_UNAVAILABLE_MESSAGE }));
          return;
        }
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
