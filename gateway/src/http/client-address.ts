// Who the client is, as far as the gateway can vouch: X-Forwarded-* headers are believed only from the
// configured TRUSTED_PROXIES (express's `trust proxy`), and are then overwritten with what the gateway
// decided, so identity's rate limits and logs never see a client's own claim.
import type { NextFunction, Request, Response } from 'express';

export function forwardedHeaders(req: Request, _res: Response, next: NextFunction) {
  req.headers['x-forwarded-for'] = req.ip ?? req.socket.remoteAddress ?? '';
  req.headers['x-forwarded-proto'] = req.protocol;
  const host = req.get('host');
  if (host) req.headers['x-forwarded-host'] = host;
  else delete req.headers['x-forwarded-host'];
  next();
}

/** The value of express's `trust proxy` for TRUSTED_PROXIES: nobody when the list is empty. */
export function trustProxySetting(trustedProxies: string[]): string[] | false {
  return trustedProxies.length > 0 ? trustedProxies : false;
}
