// Hears identity announce the sessions it ends (SESSION_REVOKED_CHANNEL, under REDIS_KEY_PREFIX) on a
// Redis connection of its own, and makes the session cache forget them (session.ts). A subscription
// hears nothing while it is down, so the cache believes nothing from the moment the connection drops
// until it is subscribed again.
import { SESSION_REVOKED_CHANNEL } from '@engram/contracts/auth';
import type { Logger } from '@engram/kit/logger';
import type { Redis } from 'ioredis';
import type { SessionResolver } from './session.js';

export function listenForRevocations(redis: Redis, keyPrefix: string, sessions: SessionResolver, logger: Logger) {
  const channel = `${keyPrefix}${SESSION_REVOKED_CHANNEL}`;
  // A subscribed connection can do nothing else, and must queue its SUBSCRIBE until it is connected.
  const subscriber = redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null });
  subscriber.on('message', (from: string, token: string) => {
    if (from === channel) sessions.revoke(token);
  });
  subscriber.on('ready', () => {
    subscriber.subscribe(channel).then(
      () => sessions.setRevocationsHeard(true),
      (error: unknown) => logger.warn({ err: error }, 'could not subscribe to session revocations'),
    );
  });
  subscriber.on('close', () => {
    sessions.setRevocationsHeard(false);
  });
  subscriber.on('error', (error) => logger.warn({ err: error }, 'session revocations: Redis connection problem'));
  return {
    close: async () => {
      sessions.setRevocationsHeard(false);
      await subscriber.quit().catch(() => subscriber.disconnect());
    },
  };
}
