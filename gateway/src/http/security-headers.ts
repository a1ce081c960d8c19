// Security headers on every response (the SPA loads only its own scripts and styles), HSTS over https,
// and no caching of API responses.
import type { NextFunction, Request, Response } from 'express';

const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * `publicBaseUrl` decides HSTS together with the request: served over https (the public URL says so, or
 * a trusted proxy's X-Forwarded-Proto does), browsers are told to use nothing else.
 */
export const securityHeaders = (publicBaseUrl: string) => {
  const publicIsHttps = publicBaseUrl.startsWith('https://');
  return (req: Request, res: Response, next: NextFunction) => {
    // API answers are private to the signed-in user and always current: never cache them.
    if (req.path.startsWith('/api/')) res.setHeader('cache-control', 'no-store');
    if (publicIsHttps || req.secure) res.setHeader('strict-transport-security', HSTS);
    res.setHeader('content-security-policy', CONTENT_SECURITY_POLICY);
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('referrer-policy', 'strict-origin-when-cross-origin');
    res.setHeader('x-frame-options', 'DENY');
    res.setHeader('cross-origin-opener-policy', 'same-origin');
    next();
  };
};
