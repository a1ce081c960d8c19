// Reverse proxies to services' own HTTP endpoints (identity's /api/auth/*, billing's Stripe webhooks).
// The body is streamed untouched (webhook signatures need the raw bytes); trace context travels along.
import { context, propagation } from '@opentelemetry/api';
import type { Request, Response } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';

export function proxyTo(target: string, pathPrefix: string, name: string) {
  return createProxyMiddleware<Request, Response>({
    target,
    pathFilter: (path) => path === pathPrefix || path.startsWith(`${pathPrefix}/`),
    // X-Forwarded-* are set by forwardedHeaders (client-address.ts), never appended to a client's own.
    xfwd: false,
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
          res.writeHead(502, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ code: 'UPSTREAM_UNAVAILABLE', message: `The ${name} service is unavailable.` }));
        } else {
          res.end();
        }
      },
    },
  });
}
