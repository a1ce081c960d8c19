// better-auth's secondary storage on Redis: session lookups and rate-limit counters shared by every
// replica. Sessions are also kept in PostgreSQL (storeSessionInDatabase), because Redis here keeps
// nothing on disk and a Redis restart must not sign everyone out.
//
// Ending a session (sign-out, revoking one or all, a password reset, a ban, deleting the account) always
// deletes its token here, so that is where identity tells the gateways: the token is published on
// SESSION_REVOKED_CHANNEL, in the same round trip, and each gateway replica forgets the session at once
// instead of believing its cached answer for a few more seconds (gateway/src/session-revocations.ts).
//
// While Redis cannot answer, what can go on does: a lookup is a miss (a session is then read from
// PostgreSQL, where every session is kept), and counters (rate limits) count in this process's memory, as
// the gateway's limits do. A write or a delete still fails: skipping one would leave Redis a copy that
// comes back wrong when Redis does (a signed-out or banned session alive again), so signing in or out
// waits for Redis.
import { SESSION_REVOKED_CHANNEL } from '@engram/contracts/auth';
import type { BetterAuthOptions } from 'better-auth';
import { Redis } from 'ioredis';

export type SecondaryStorage = NonNullable<BetterAuthOptions['secondaryStorage']>;

/**
 * Whether a connection that was up has gone and not come back yet. Before the first connection is ready
 * (a starting service), commands wait in ioredis's queue as usual: that is not an outage.
 */
function connectionLost(redis: Redis): () => boolean {
  let lost = false;
  redis.on('ready', () => {
    lost = false;
  });
  redis.on('close', () => {
    lost = true;
  });
  return () => lost;
}

/** Counters with a time to live in this process's memory: the rate limits' while Redis cannot answer. */
function memoryCounters() {
  const counters = new Map<string, { value: number; until: number }>();
  return (name: string, ttlSeconds: number) => {
    const now = Date.now();
    const known = counters.get(name);
    const counter = known && known.until > now ? known : { value: 0, until: now + ttlSeconds * 1000 };
    counter.value += 1;
    counters.set(name, counter);
    if (counters.size > 10_000) for (const [key, old] of counters) if (old.until <= now) counters.delete(key);
    return counter.value;
  };
}

// INCR and the first EXPIRE in one step, so a counter can never be left without its window.
const INCREMENT_WITH_TTL = `
local value = redis.call('INCR', KEYS[1])
if value == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return value`;

/**
 * better-auth keeps a session under its bare token (letters and digits); its other keys have a prefix
 * (`active-sessions-`, `revoked-sessions-before-`, `verification:`, rate limits).
 */
const SESSION_TOKEN = /^[A-Za-z0-9]{20,}$/;

export function createRedis(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
}

/** Keys are `<prefix>identity:<name>`; the prefix is REDIS_KEY_PREFIX. */
export function redisSecondaryStorage(redis: Redis, prefix = 'engram:'): SecondaryStorage {
  const key = (name: string) => `${prefix}identity:${name}`;
  const revoked = `${prefix}${SESSION_REVOKED_CHANNEL}`;
  const countInMemory = memoryCounters();
  const lost = connectionLost(redis);
  return {
    // Connection lost: a miss at once, rather than a wait in ioredis's queue for a reconnection on every request.
    get: (name) => (lost() ? Promise.resolve(null) : redis.get(key(name)).catch(() => null)),
    getAndDelete: (name) => redis.getdel(key(name)),
    increment: async (name, ttl) => {
      if (lost()) return countInMemory(name, Math.max(1, ttl));
      try {
        return Number(await redis.eval(INCREMENT_WITH_TTL, 1, key(name), Math.max(1, ttl)));
      } catch {
        return countInMemory(name, Math.max(1, ttl));
      }
    },
    set: async (name, value, ttl) => {
      if (ttl && ttl > 0) await redis.set(key(name), value, 'EX', Math.ceil(ttl));
      else await redis.set(key(name), value);
    },
    delete: async (name) => {
      if (!SESSION_TOKEN.test(name)) {
        await redis.del(key(name));
        return;
      }
      await redis.multi().del(key(name)).publish(revoked, name).exec();
    },
  };
}
