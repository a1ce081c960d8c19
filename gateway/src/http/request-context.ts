// Per request: a server span (continuing an incoming traceparent), a request id echoed to the client,
// a child logger carrying both, and the latency histogram.
import { randomUUID } from 'node:crypto';
import type { Logger } from '@engram/kit/logger';
import { httpRequests } from '@engram/kit/metrics';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { NextFunction, Request, Response } from 'express';

declare global {
  namespace Express {
    interface Request {
      id: string;
      log: Logger;
    }
  }
}

// Metrics labels come from this fixed table, so no path a client invents can add a time series.
const API_ROUTES = ['/api/trpc', '/api/auth', '/api/webhooks/stripe', '/api/dev'];

export function routeLabel(path: string): string {
  if (path !== '/api' && !path.startsWith('/api/')) return 'static';
  return API_ROUTES.find((route) => path === route || path.startsWith(`${route}/`)) ?? '/api/other';
}

export function requestContext(logger: Logger) {
  const tracer = trace.getTracer('gateway');
  return (req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    const path = req.path; // before routers strip their mount paths
    const incoming = req.get('x-request-id');
    req.id = incoming && /^[\w-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    res.setHeader('x-request-id', req.id);
    const parent = propagation.extract(context.active(), req.headers);
    context.with(parent, () => {
      const span = tracer.startSpan(`${req.method} ${path}`, { kind: SpanKind.SERVER });
      context.with(trace.setSpan(context.active(), span), () => {
        const { traceId, spanId } = span.spanContext();
        req.log = logger.child({ request_id: req.id, trace_id: traceId, span_id: spanId });
        // 'close' rather than 'finish': a streamed tRPC response may be closed by the client once it has read it.
        res.once('close', () => {
          const route = routeLabel(path);
          httpRequests.observe(
            { method: req.method, route, status: String(res.statusCode) },
            (performance.now() - started) / 1000,
          );
          span.setAttribute('http.response.status_code', res.statusCode);
          if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
          if (path.startsWith('/api/')) {
            req.log.info({ method: req.method, path, status: res.statusCode }, 'request');
          }
        });
        next();
      });
    });
  };
}
