// A starting gateway reports ready once its Redis connection is up, so its rate limits count with the other
// replicas' from its first request; a Redis that stays away does not keep it down for ever. Runs against a
// private redis-server, which the tests start late or not at all.
import { capturedLogger } from '@engram/testkit/captured-logger';
import { type PrivateRedisServer, startPrivateRedisServer } from '@engram/testkit/redis-server';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { firstConnection } from '../../src/redis-connection.js';

let server: PrivateRedisServer;
const clients: Redis[] = [];

beforeAll(async () => {
  server = await startPrivateRedisServer();
  await server.stop();
});
afterAll(async () => {
  for (const client of clients) client.disconnect();
  await server?.stop();
});

/** A connection made as the gateway makes it (main.ts). */
function gatewayConnection() {
  const redis = new Redis(server.url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, retryStrategy: () => 50 });
  redis.on('error', () => {});
  clients.push(redis);
  return redis;
}

it('waits for a Redis that comes up after the gateway started', async () => {
  const { logger, lines } = capturedLogger('gateway-test');
  const redis = gatewayConnection();
  let settled = false;
  const connected = firstConnection(redis, logger, 20_000).finally(() => {
    settled = true;
  });
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(settled).toBe(false);

  await server.start();
  expect(await connected).toBe(true);
  expect(redis.status).toBe('ready');
  expect(lines).toEqual([]);
  await server.stop();
});

it('serves without Redis, and says so, when Redis stays unreachable', async () => {
  const { logger, lines } = capturedLogger('gateway-test');
  expect(await firstConnection(gatewayConnection(), logger, 200)).toBe(false);
  await expect
    .poll(() => lines.map((line) => line.msg))
    .toEqual(['Redis is not reachable yet: serving, with rate limits counted in memory']);
});
