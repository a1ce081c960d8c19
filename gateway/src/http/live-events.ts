// GET /api/live: a signed-in tab's stream of what happens elsewhere to its learner (Server-Sent Events). Today one
// kind: AnkiConnect's guiBrowse, which a tool (Yomitan's "view note") asks for from another page or app: every open
// Engram tab of the learner hears `event: browse` with the search, and shows those cards on the Browse screen.
// Events go through Redis (`<prefix>live:<userId>`), so a tool's request to one gateway replica reaches a tab held
// open by another. A stream is ended when the gateway shuts down (its tab opens it again), and carries a comment
// every HEARTBEAT_MS so that proxies keep it open.
import type { Logger } from '@engram/kit/logger';
import type express from 'express';
import type { Redis } from 'ioredis';
import type { SessionResolver } from '../session.js';

export const LIVE_PATH = '/api/live';
const HEARTBEAT_MS = 25_000;
/** The most streams one learner holds open on one replica (tabs, devices). */
const STREAMS_PER_USER = 20;

export interface LiveEvents {
  /** Tells every open tab of `userId` (on any replica) to browse `query`. */
  browse(userId: string, query: string): Promise<void>;
  route: express.RequestHandler;
  close(): Promise<void>;
}

export function liveEvents(redis: Redis, keyPrefix: string, sessions: SessionResolver, logger: Logger): LiveEvents {
  const prefix = `${keyPrefix}live:`;
  const streams = new Map<string, Set<express.Response>>();
  const subscriber = redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null });
  subscriber.on('pmessage', (_pattern: string, channel: string, message: string) => {
    const userId = channel.slice(prefix.length);
    for (const res of streams.get(userId) ?? []) res.write(`event: browse\ndata: ${message}\n\n`);
  });
  subscriber.on('ready', () => {
    subscriber
      .psubscribe(`${prefix}*`)
      .catch((error: unknown) => logger.warn({ err: error }, 'live events: cannot subscribe'));
  });
  subscriber.on('error', (error) => logger.warn({ err: error }, 'live events: Redis connection problem'));

  const route: express.RequestHandler = async (req, res) => {
    const session = await sessions
      .resolve({ cookie: req.headers.cookie, authorization: req.headers.authorization })
      .catch(() => null);
    if (!session || session.user.banned) {
      res.status(401).json({ code: 'UNAUTHORIZED', message: 'Please sign in.' });
      return;
    }
    const userId = session.caller.userId;
    const open = streams.get(userId) ?? new Set<express.Response>();
    if (open.size >= STREAMS_PER_USER) {
      res.status(429).json({ code: 'TOO_MANY_REQUESTS', message: 'Too many open tabs.' });
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    });
    res.write(': open\n\n');
    open.add(res);
    streams.set(userId, open);
    const heartbeat = setInterval(() => res.write(': still here\n\n'), HEARTBEAT_MS);
    req.on('close', () => {
      clearInterval(heartbeat);
      open.delete(res);
      if (open.size === 0) streams.delete(userId);
    });
  };

  return {
    async browse(userId, query) {
      await redis.publish(`${prefix}${userId}`, JSON.stringify({ query }));
    },
    route,
    async close() {
      for (const open of streams.values()) for (const res of open) res.end();
      streams.clear();
      await subscriber.quit().catch(() => subscriber.disconnect());
    },
  };
}
