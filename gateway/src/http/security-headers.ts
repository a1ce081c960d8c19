// Security headers on every response (the SPA loads only its own scripts, styles and images, Google
// Analytics' tag when one is configured, and Google's sign-in prompt when Google sign-in is), HSTS over https,
// and no caching of API responses. Images come from
// Engram alone (data: for pictures kept with a user), so nothing in a card, a shared deck or a profile can
// make a learner's browser ask another site for anything (a tracking pixel).
import type { NextFunction, Request, Response } from 'express';

/** Google Analytics 4's tag and the hosts it reports to (only when a measurement id is configured). */
const ANALYTICS_SCRIPTS = 'https://www.googletagmanager.com';
const ANALYTICS_CONNECT =
  'https://*.google-analytics.com https://*.analytics.google.com https://*.googletagmanager.com';

/** Google One Tap's script, styles, prompt frame and calls (Google's documented sources for its sign-in client). */
const ONE_TAP = {
  script: 'https://accounts.google.com/gsi/client',
  style: 'https://accounts.google.com/gsi/style',
  frame: 'https://accounts.google.com/gsi/',
  connect: 'https://accounts.google.com/gsi/',
};

const contentSecurityPolicy = (analytics: boolean, oneTap: boolean, uploadOrigins: readonly string[]) =>
  [
    "default-src 'self'",
    ["script-src 'self'", ...(analytics ? [ANALYTICS_SCRIPTS] : []), ...(oneTap ? [ONE_TAP.script] : [])].join(' '),
    ["style-src 'self' 'unsafe-inline'", ...(oneTap ? [ONE_TAP.style] : [])].join(' '),
    ...(oneTap ? [`frame-src ${ONE_TAP.frame}`] : []),
    // The maths fonts are Engram's own; the build inlines the smallest as data: URLs.
    "font-src 'self' data:",
    analytics ? `img-src 'self' data: ${ANALYTICS_CONNECT}` : "img-src 'self' data:",
    // Files go straight to the object store (a presigned PUT): its origin is the one other place a page sends to.
    [
      "connect-src 'self'",
      ...uploadOrigins,
      ...(analytics ? [ANALYTICS_CONNECT] : []),
      ...(oneTap ? [ONE_TAP.connect] : []),
    ].join(' '),
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ');

const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * `publicBaseUrl` decides HSTS together with the request: served over https (the public URL says so, or
 * a trusted proxy's X-Forwarded-Proto does), browsers are told to use nothing else. With Google sign-in's One Tap
 * (`oneTap`), the page may open Google's sign-in popup (Safari's way to it) and keep talking to it.
 */
export const securityHeaders = (
  publicBaseUrl: string,
  { analytics = false, oneTap = false, uploadOrigins = [] as readonly string[] } = {},
) => {
  const publicIsHttps = publicBaseUrl.startsWith('https://');
  const csp = contentSecurityPolicy(analytics, oneTap, uploadOrigins);
  const openerPolicy = oneTap ? 'same-origin-allow-popups' : 'same-origin';
  return (req: Request, res: Response, next: NextFunction) => {
    // API answers are private to the signed-in user and always current: never cache them.
    if (req.path.startsWith('/api/')) res.setHeader('cache-control', 'no-store');
    if (publicIsHttps || req.secure) res.setHeader('strict-transport-security', HSTS);
    res.setHeader('content-security-policy', csp);
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('referrer-policy', 'strict-origin-when-cross-origin');
    res.setHeader('x-frame-options', 'DENY');
    res.setHeader('cross-origin-opener-policy', openerPolicy);
    next();
  };
};
