// Reverse proxies to services' own HTTP endpoints (identity's /api/auth/*, billing's Stripe webhooks).
// The body is streamed untouched (webhook signatures need the raw bytes); trace context travels along.
import { Agent } from 'node:http';
import { SERVICE_UNAVAILABLE_MESSAGE } from '@engram/contracts/trpc';
import { context, propagation } from '@opentelemetry/api';
import type { Request, Response } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';

// Connections to a service are kept alive between requests, but never up to the moment the service closes
// them: a request sent on a connection just as its server lets it go is lost ("socket hang up", a 503 for
// nothing). With a timeout set, Node's agent drops an idle connection a second before the server's announced
// `Keep-Alive: timeout=5` (the proxy library's own agent sets none, and then Node keeps it until the server
// closes it); 4 s is the limit for a server that announces nothing.
const IDLE_CONNECTION_MS = 4_000;
const upstreamAgent = new Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64, timeout: IDLE_CONNECTION_MS });

export function proxyTo(target: string, pathPrefix: string, name: string) {
  return createProxyMiddleware<Request, Response>({
    target,
    pathFilter: (path) => path === pathPrefix || path.startsWith(`${pathPrefix}/`),
    // X-Forwarded-* are set by forwardedHeaders (client-address.ts), never appended to a client's own.
    xfwd: false,
    agent: upstreamAgent,
    proxyTimeout: 15_000,
    on: {
      proxyRes(proxyRes) {
        // better-auth says when to retry in X-Retry-After; browsers and clients read the standard header.
        const retryAfter = proxyRes.headers['x-retry-after']?.toString();
        if (proxyRes.statusCode === 429 && retryAfter) proxyRes.headers['retry-after'] = retryAfter;
      },
      proxyReq(proxyReq) {
        const carrier: Record<string, string> = {};
        propagation.inject(context.active(), carrier);
        for (const [key, value] of Object.entries(carrier)) proxyReq.setHeader(key, value);
      },
      error(error, req, res) {
        req.log?.error({ err: error, upstream: name }, 'proxy error');
        if ('writeHead' in res && !res.headersSent) {
          // Not reached (restarting, or gone for a moment): 503 and Retry-After, which clients try again.
          res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
          res.end(JSON.stringify({ code: 'SERVICE_UNAVAILABLE', message: SERVICE_UNAVAILABLE_MESSAGE }));
        } else {
          res.end();
        }
      },
    },
  });
}
