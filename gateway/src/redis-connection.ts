// The gateway's Redis connection at start. Its rate limits count in Redis so that every replica agrees, and
// fall back to this process's memory only while Redis cannot answer. A replica that reported ready before its
// connection was up would count its first requests in memory: a new pod of a rolling update, a second
// gateway beside a running one, would let through what the others refuse. So readiness waits for the first
// connection, for a while: a Redis that stays unreachable must not keep the edge down, and then the replica
// serves, counting in memory, as it does through any outage.
import type { Logger } from '@engram/kit/logger';
import type { Redis } from 'ioredis';

/** How long a starting gateway waits for Redis before it serves without it. */
export const REDIS_STARTUP_WAIT_MS = 10_000;

/** Resolves true once `redis` is ready, or false after `waitMs` (logged) if it is not. */
export function firstConnection(redis: Redis, logger: Logger, waitMs = REDIS_STARTUP_WAIT_MS): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      logger.warn({ waitedMs: waitMs }, 'Redis is not reachable yet: serving, with rate limits counted in memory');
      resolve(false);
    }, waitMs);
    const onReady = () => {
      clearTimeout(timer);
      resolve(true);
    };
    redis.once('ready', onReady);
  });
}
