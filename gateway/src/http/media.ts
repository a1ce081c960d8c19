// GET /media/<id>/<name>: a card's image or sound, read from the object store for a signed-in reader that
// cards lets see it (its owner, or a learner whose card shows it), so a card's Markdown points at this
// site alone and the page's Content-Security-Policy stays `img-src 'self'`. Anyone else, signed in or not,
// gets the same 404 as for an id that does not exist. The bytes stream through (Range too, so a sound can
// seek). The HTTP cache never keeps one (no-store): it outlives a sign-out and is the same for whoever uses the
// browser next; offline practice takes the files from the service worker's cache, which the app empties with the
// learner's offline set (web/src/entities/offline/forget.ts).
// Like every call, a request is counted (rate-limit.ts): a signed-in reader's files per user, and a
// request whose session is not known yet per address, before identity is asked; over the count it gets
// 429 with Retry-After. A banned user gets 403 BANNED_USER, as from every call.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';
import { BANNED_USER_CODE, BANNED_USER_MESSAGE } from '@engram/contracts/auth';
import type { NextFunction, Request, Response } from 'express';
import { asUser } from '../call.js';
import type { Services } from '../clients.js';
import { type MediaRateLimits, type RateDecision, tooManyRequestsMessage } from '../rate-limit.js';
import type { SessionInfo, SessionResolver } from '../session.js';
import { type ProtectedContext, toTrpcError } from '../trpc.js';

const PASSED_ON = ['content-length', 'content-range', 'accept-ranges', 'etag', 'last-modified'] as const;

function notFound(res: Response): void {
  res.status(404).type('text/plain').send('Not found');
}

/** Answers 429 with Retry-After when `decision` refuses; says whether it did. */
function refusedForRate(res: Response, decision: RateDecision): boolean {
  if (decision.allowed) return false;
  res
    .status(429)
    .setHeader('retry-after', String(decision.retryAfterSeconds))
    .json({ code: 'TOO_MANY_REQUESTS', message: tooManyRequestsMessage(decision.retryAfterSeconds) });
  return true;
}

export function mediaRoute(services: Services, sessions: SessionResolver, limits: MediaRateLimits) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      const credentials = { cookie: req.headers.cookie, authorization: req.headers.authorization };
      let session: SessionInfo | null;
      const known = sessions.known(credentials);
      if (known) {
        session = await known;
        if (!session && refusedForRate(res, await limits.byAddress(req.ip ?? ''))) return;
      } else {
        // The address first: a flood is refused before it costs a session lookup.
        if (refusedForRate(res, await limits.byAddress(req.ip ?? ''))) return;
        session = await sessions.resolve(credentials);
      }
      if (!session) return notFound(res);
      if (refusedForRate(res, await limits.byUser(session.caller.userId))) return;
      if (session.user.banned) {
        res.status(403).json({ code: BANNED_USER_CODE, message: BANNED_USER_MESSAGE });
        return;
      }
      const controller = new AbortController();
      res.once('close', () => controller.abort());
      const ctx = { services, logger: req.log, session, signal: controller.signal } as ProtectedContext;
      let opened: Awaited<ReturnType<ReturnType<typeof asUser>['media']['openMedia']>>;
      try {
        opened = await asUser(ctx).media.openMedia({ id: String(req.params.id) });
      } catch (error) {
        if (toTrpcError(error).code === 'NOT_FOUND') return notFound(res);
        throw error;
      }
      const range = req.headers.range;
      const upstream = await fetch(opened.url, {
        ...(range && { headers: { range } }),
        signal: controller.signal,
      });
      if (!upstream.ok || !upstream.body) {
        req.log.warn({ status: upstream.status }, 'the object store did not give a card file');
        res
          .status(upstream.status === 416 ? 416 : 502)
          .type('text/plain')
          .send('The file cannot be read right now.');
        return;
      }
      res.status(upstream.status);
      res.setHeader('content-type', opened.contentType);
      for (const header of PASSED_ON) {
        const value = upstream.headers.get(header);
        if (value) res.setHeader(header, value);
      }
      res.setHeader('cache-control', 'private, no-store');
      res.setHeader('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(opened.name)}`);
      if (req.method === 'HEAD') {
        res.end();
        return;
      }
      // A reader who goes away ends the copy (and the store's read): that is no error of the gateway's.
      pipeline(Readable.fromWeb(upstream.body as ReadableStream), res).catch((error: unknown) => {
        if (!controller.signal.aborted) req.log.warn({ err: error }, 'a card file stopped streaming');
      });
    } catch (error) {
      next(error);
    }
  };
}
