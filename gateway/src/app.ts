// Assembles the gateway's HTTP app. Order matters: proxies stream raw bodies, so they come before any
// body parsing; tRPC parses its own bodies.
import type { Logger } from '@engram/kit/logger';
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import express from 'express';
import type { Services } from './clients.js';
import { proxyTo } from './http/proxy.js';
import { requestContext } from './http/request-context.js';
import { securityHeaders } from './http/security-headers.js';
import { spa } from './http/spa.js';
import { appRouter } from './router.js';
import { resolveSession } from './session.js';
import { toTrpcError } from './trpc.js';

export interface AppOptions {
  logger: Logger;
  services: Services;
  identityHttpUrl: string;
  billingHttpUrl: string;
  webDistDir: string;
}

export function createApp(options: AppOptions) {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback, linklocal, uniquelocal');
  app.use(requestContext(options.logger));
  app.use(securityHeaders);
  app.use(proxyTo(options.identityHttpUrl, '/api/auth', 'identity'));
  app.use(proxyTo(options.billingHttpUrl, '/api/webhooks/stripe', 'billing'));
  app.use(
    '/api/trpc',
    createExpressMiddleware({
      router: appRouter,
      async createContext({ req, res }) {
        // A client that goes away cancels the calls made for it (not the normal end of a response).
        const controller = new AbortController();
        res.once('close', () => {
          if (!res.writableFinished) controller.abort();
        });
        let session = null;
        try {
          session = await resolveSession(options.services, {
            cookie: req.headers.cookie,
            authorization: req.headers.authorization,
          });
        } catch (error) {
          req.log.error({ err: error }, 'session lookup failed');
          throw toTrpcError(error);
        }
        return { services: options.services, logger: req.log, session, signal: controller.signal };
      },
      onError({ error, path }) {
        if (error.code === 'INTERNAL_SERVER_ERROR')
          options.logger.error({ err: error.cause ?? error, path }, 'procedure failed');
      },
    }),
  );
  app.use('/api', (_req, res) => {
    res.status(404).json({ code: 'NOT_FOUND', message: 'Not Found' });
  });
  app.use(spa(options.webDistDir));
  return app;
}
