// Assembles the gateway's HTTP app. Order matters: who the client is and whether the request may run at
// all (site, size) are settled first; proxies stream raw bodies, so they come before any body parsing;
// tRPC parses its own bodies.

import type { CaptchaProvider } from '@engram/contracts/auth-features';
import { API_KEY_HEADER } from '@engram/contracts/auth-features';
import type { Logger } from '@engram/kit/logger';
import { TRPCError } from '@trpc/server';
import { type CreateExpressContextOptions, createExpressMiddleware } from '@trpc/server/adapters/express';
import express from 'express';
import type { Redis } from 'ioredis';
import type { Services } from './clients.js';
import { UPLOAD_BODY_MAX_BYTES } from './handlers/ai/upload.js';
import { ankiConnectRoute } from './http/anki-connect.js';
import { apiDocsRoutes } from './http/api-docs.js';
import { bodyLimit } from './http/body-limit.js';
import { clearCacheOnSignOut } from './http/clear-on-sign-out.js';
import { forwardedHeaders, trustProxySetting } from './http/client-address.js';
import { devMailboxRoute } from './http/dev-mailbox.js';
import { LIVE_PATH, type LiveEvents } from './http/live-events.js';
import { mediaRoute } from './http/media.js';
import type { PublicConfig } from './http/page-heads.js';
import { proxyTo } from './http/proxy.js';
import { requestContext } from './http/request-context.js';
import { SAFE_METHODS, sameOriginOnly } from './http/same-origin.js';
import { securityHeaders } from './http/security-headers.js';
import { spa } from './http/spa.js';
import { type MediaRateLimits, type RateDecision, type TrpcRateLimits, tooManyRequestsMessage } from './rate-limit.js';
import { appRouter } from './router.js';
import { resolveApiKey, type SessionInfo, type SessionResolver } from './session.js';
import { type Context, toTrpcError } from './trpc.js';

export interface AppOptions {
  logger: Logger;
  services: Services;
  identityHttpUrl: string;
  billingHttpUrl: string;
  webDistDir: string;
  publicBaseUrl: string;
  /** Settings the web app reads in the browser (support email, analytics id, Google client id), filled into every page. */
  publicConfig: PublicConfig;
  /** The captcha identity asks for (CAPTCHA_PROVIDER): its widget may load in the pages. */
  captchaProvider?: CaptchaProvider | undefined;
  trustedOrigins: string[];
  trustedProxies: string[];
  trpcMaxBodyBytes: number;
  /** The most calls one batched tRPC request may hold. */
  trpcMaxBatchSize: number;
  rateLimits: TrpcRateLimits;
  /** The counts of card files (GET /media/…), apart from the calls'. */
  mediaRateLimits: MediaRateLimits;
  /** Development helpers under /api/dev (the Stripe stand-in's pages); never in production. */
  devRoutes: boolean;
  /** The object store's origins browsers send files to (presigned PUTs): allowed in connect-src. */
  uploadOrigins?: string[] | undefined;
  /** The session cache, told of revocations by main (session-revocations.ts). */
  sessions: SessionResolver;
  /** Live events to the learner's open tabs (GET /api/live; AnkiConnect's guiBrowse); absent, neither is served. */
  live?: LiveEvents | undefined;
  /** Where the dev mailbox is read from; absent in production, where GET /api/dev/mailbox is 404. */
  devMailbox?: { redis: Redis; keyPrefix: string } | undefined;
}

const ALLOWED: RateDecision = { allowed: true };
/** The procedures that take a file (form data), each body within the upload limit. */
const UPLOAD_PATHS = new Set(['/ai.upload', '/ai.proposeOcclusions']);

/**
 * Signing out (or any change to an account) through this replica: the credentials it carried are asked of
 * identity again, on arrival and once identity has answered (session.ts).
 */
function forgetSessionsOnAccountChanges(sessions: SessionResolver): express.RequestHandler {
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const credentials = { cookie: req.headers.cookie, authorization: req.headers.authorization };
    sessions.forget(credentials);
    res.once('finish', () => sessions.forget(credentials));
    next();
  };
}

/** Identity's auth API and billing's Stripe webhooks, proxied with their raw bodies. */
function mountProxies(app: express.Express, options: AppOptions): void {
  app.use('/api/auth', forgetSessionsOnAccountChanges(options.sessions));
  app.use(clearCacheOnSignOut);
  app.use(proxyTo(options.identityHttpUrl, '/api/auth', 'identity'));
  app.use(proxyTo(options.billingHttpUrl, '/api/webhooks/stripe', 'billing'));
  // The Stripe stand-in's checkout and portal pages, served by billing when it runs without Stripe keys.
  if (options.devRoutes) app.use(proxyTo(options.billingHttpUrl, '/api/dev/stripe', 'billing'));
}

/** Refuses the request with TOO_MANY_REQUESTS (and when to try again) when a rate limit says so. */
function refuseIfLimited(res: express.Response, decision: RateDecision): void {
  if (decision.allowed) return;
  res.setHeader('retry-after', String(decision.retryAfterSeconds));
  throw new TRPCError({
    code: 'TOO_MANY_REQUESTS',
    message: tooManyRequestsMessage(decision.retryAfterSeconds),
  });
}

/** A session lookup; a failure is logged and becomes the tRPC error the client sees. */
function lookUp<T extends SessionInfo | null>(req: express.Request, ask: Promise<T>): Promise<T> {
  return ask.catch((error) => {
    req.log.error({ err: error }, 'session lookup failed');
    throw toTrpcError(error);
  });
}

/** The caller's session, if any, once the address's and the user's rate limits allow the batch's `paths`. */
async function sessionWithinLimits(
  options: AppOptions,
  req: express.Request,
  res: express.Response,
  paths: string[],
): Promise<SessionInfo | null> {
  const { rateLimits, sessions } = options;
  const credentials = { cookie: req.headers.cookie, authorization: req.headers.authorization };
  const apiKey = req.headers[API_KEY_HEADER];
  const known = sessions.known(credentials);
  let session: SessionInfo | null;
  if (typeof apiKey === 'string') {
    // A key acts as its owner; identity counts every use, so nothing is remembered here.
    refuseIfLimited(res, await rateLimits.byAddress(req.ip ?? '', paths.length));
    session = await lookUp(req, resolveApiKey(options.services, apiKey));
    refuseIfLimited(res, await rateLimits.byUser(session.caller.userId, paths));
  } else if (known) {
    // Nothing to ask identity: both counts go to Redis together (one pipelined write).
    session = await lookUp(req, known);
    const decisions = await Promise.all([
      rateLimits.byAddress(req.ip ?? '', paths.length),
      session ? rateLimits.byUser(session.caller.userId, paths) : ALLOWED,
    ]);
    for (const decision of decisions) refuseIfLimited(res, decision);
  } else {
    // The address first: a flood is refused before it costs a session lookup.
    refuseIfLimited(res, await rateLimits.byAddress(req.ip ?? '', paths.length));
    session = await lookUp(req, sessions.resolve(credentials));
    if (session) refuseIfLimited(res, await rateLimits.byUser(session.caller.userId, paths));
  }
  return session;
}

/** A tRPC call's context: who calls, counted against the rate limits, and a signal that ends with the client. */
async function trpcContext(options: AppOptions, { req, res, info }: CreateExpressContextOptions): Promise<Context> {
  // Each call of a batch is counted below; a batch over the maximum is refused first, none of it run or counted.
  const paths = info.calls.map((call) => call.path);
  if (paths.length > options.trpcMaxBatchSize) {
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: `A batch may hold at most ${options.trpcMaxBatchSize} calls; this one holds ${paths.length}.`,
    });
  }
  // A client that goes away cancels the calls made for it (not the normal end of a response).
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const session = await sessionWithinLimits(options, req, res, paths);
  return { services: options.services, logger: req.log, session, signal: controller.signal };
}

function trpcWithin(options: AppOptions, maxBodySize: number) {
  return createExpressMiddleware({
    router: appRouter,
    maxBodySize,
    createContext: (context) => trpcContext(options, context),
    onError({ error, path, req }) {
      // Masked for the browser (trpc.ts); the cause is logged here with the request's trace id.
      if (error.code === 'INTERNAL_SERVER_ERROR')
        req.log.error({ err: error.cause ?? error, path }, 'procedure failed');
    },
  });
}

/** tRPC at /api/trpc, each body within its limit. */
function mountTrpc(app: express.Express, options: AppOptions): void {
  // A file (ai.upload's notes, ai.proposeOcclusions' picture; never batched by the web app) may be larger than any
  // other body: its own limit.
  const uploadMaxBytes = Math.max(options.trpcMaxBodyBytes, UPLOAD_BODY_MAX_BYTES);
  const trpc = trpcWithin(options, options.trpcMaxBodyBytes);
  const trpcUpload = trpcWithin(options, uploadMaxBytes);
  const limitTrpc = bodyLimit(options.trpcMaxBodyBytes);
  const limitUpload = bodyLimit(uploadMaxBytes);
  app.use('/api/trpc', (req, res, next) =>
    UPLOAD_PATHS.has(req.path)
      ? limitUpload(req, res, () => trpcUpload(req, res, next))
      : limitTrpc(req, res, () => trpc(req, res, next)),
  );
}

export function createApp(options: AppOptions) {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', trustProxySetting(options.trustedProxies));
  app.use(requestContext(options.logger));
  app.use(forwardedHeaders);
  app.use(
    securityHeaders(options.publicBaseUrl, {
      analytics: Boolean(options.publicConfig.analyticsId),
      oneTap: Boolean(options.publicConfig.googleClientId),
      captcha: options.captchaProvider,
      uploadOrigins: options.uploadOrigins ?? [],
    }),
  );
  // Before the cross-site guard: it authenticates by API key alone, never by cookie (http/anki-connect.ts).
  app.use(ankiConnectRoute(options));
  app.use('/api', sameOriginOnly(options.publicBaseUrl, options.trustedOrigins));
  mountProxies(app, options);
  mountTrpc(app, options);
  app.use(apiDocsRoutes(appRouter, options.publicBaseUrl));
  if (options.live) app.get(LIVE_PATH, options.live.route);
  if (options.devMailbox)
    app.get('/api/dev/mailbox', devMailboxRoute(options.devMailbox.redis, options.devMailbox.keyPrefix));
  app.use('/api', (_req, res) => {
    res.status(404).json({ code: 'NOT_FOUND', message: 'Not Found' });
  });
  // Card files: same-origin, for readers cards lets see them, within their own rate limits (http/media.ts).
  const media = mediaRoute(options.services, options.sessions, options.mediaRateLimits);
  app.get('/media/:id', media);
  app.get('/media/:id/:name', media);
  app.use(spa(options.webDistDir, options.publicBaseUrl, options.publicConfig));
  return app;
}
