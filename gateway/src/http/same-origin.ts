// Cross-site request refusal: a state-changing request (POST, PUT, PATCH, DELETE) a browser sends from
// another site is answered 403 before anything runs. The browser's own word decides: Origin, else
// Sec-Fetch-Site, else Referer. Requests with none of them come from no browser page (a script with an
// API key, Stripe's webhooks) and carry no ambient cookie risk, so they pass.
import type { NextFunction, Request, Response } from 'express';

export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

function originOf(value: string): string | null {
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}

export function sameOriginOnly(publicBaseUrl: string, trustedOrigins: string[]) {
  const allowed = new Set([publicBaseUrl, ...trustedOrigins].map((url) => originOf(url)));
  const isCrossSite = (req: Request): boolean => {
    const origin = req.get('origin');
    if (origin !== undefined) return !allowed.has(originOf(origin));
    const site = req.get('sec-fetch-site');
    if (site !== undefined) return site === 'cross-site';
    const referer = req.get('referer');
    if (referer !== undefined) return !allowed.has(originOf(referer));
    return false;
  };
  return (req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method) || !isCrossSite(req)) return next();
    req.log.warn({ origin: req.get('origin'), referer: req.get('referer') }, 'cross-site request refused');
    res.status(403).json({ code: 'FORBIDDEN', message: 'Cross-site requests are not allowed.' });
  };
}
