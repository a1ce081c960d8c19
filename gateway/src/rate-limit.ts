// tRPC rate limits, per client address and per signed-in user, counted in Redis so every gateway replica
// agrees. Should Redis be unreachable, each replica keeps counting in memory rather than refusing all.
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

export interface RateLimitSettings {
  windowSeconds: number;
  perUser: number;
  perAddress: number;
  /** REDIS_KEY_PREFIX. */
  keyPrefix: string;
}

/** The answer to one request: allowed, or refused with the seconds until it may try again. */
export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface TrpcRateLimits {
  byAddress(address: string): Promise<RateDecision>;
  byUser(userId: string): Promise<RateDecision>;
}

function limiter(redis: Redis, keyPrefix: string, points: number, duration: number) {
  return new RateLimiterRedis({
    storeClient: redis,
    keyPrefix,
    points,
    duration,
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration }),
  });
}

async function decide(consume: () => Promise<RateLimiterRes>): Promise<RateDecision> {
  try {
    await consume();
    return { allowed: true };
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
  }
}

export function createTrpcRateLimits(redis: Redis, settings: RateLimitSettings): TrpcRateLimits {
  const prefix = `${settings.keyPrefix}gateway:trpc`;
  const address = limiter(redis, `${prefix}:address`, settings.perAddress, settings.windowSeconds);
  const user = limiter(redis, `${prefix}:user`, settings.perUser, settings.windowSeconds);
  return {
    byAddress: (ip) => decide(() => address.consume(ip)),
    byUser: (userId) => decide(() => user.consume(userId)),
  };
}
