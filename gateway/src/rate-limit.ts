// Rate limits, counted in Redis so every gateway replica agrees. tRPC: per client address and per
// signed-in user, every call of a batch a point; calls that reach an outside service or do heavy work also
// count against a tighter limit of their own, per user (Stripe, the model, uploads, forecasts, syncing a device's
// reviews). Card files (GET /media/…): counts of their own, so
// a page full of pictures never spends the budget of the calls. Should Redis be unreachable, each replica
// keeps counting in memory rather than refusing all.
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

/** The procedures with a limit of their own, by the name of that limit. */
export const COSTLY_PROCEDURES = {
  // Each reaches Stripe, whose API rate limit is the whole company's.
  stripe: ['billing.checkout', 'billing.checkoutSession', 'billing.portal'],
  // The model (Bedrock) and a usage reservation for every generation (and every occlusion proposal).
  generate: ['ai.generate', 'ai.proposeOcclusions'],
  // Up to 3 MB read, parsed (PDF) and stored per call.
  upload: ['ai.upload'],
  // Seconds of CPU in a child process of cards per call: the learner's cards simulated over a year, or their
  // review logs replayed (services/cards/src/compute).
  forecast: ['settings.simulate', 'settings.recommendRetention', 'settings.previewReschedule', 'settings.reschedule'],
  // Up to 500 reviews applied per call, in one transaction that locks their items (a device's queue, sent in batches).
  sync: ['cards.syncReviews'],
} as const satisfies Record<string, readonly string[]>;

export type CostlyKind = keyof typeof COSTLY_PROCEDURES;

export interface RateLimitSettings {
  windowSeconds: number;
  perUser: number;
  perAddress: number;
  /** Calls per user and window of the procedures in each COSTLY_PROCEDURES entry. */
  costlyPerUser: Record<CostlyKind, number>;
  /** REDIS_KEY_PREFIX. */
  keyPrefix: string;
}

/** The answer to one request: allowed, or refused with the seconds until it may try again. */
export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface TrpcRateLimits {
  /** Counts `calls` calls from this address. */
  byAddress(address: string, calls: number): Promise<RateDecision>;
  /** Counts the calls to `paths` (one entry per call of the request) by this user. */
  byUser(userId: string, paths: readonly string[]): Promise<RateDecision>;
}

const ALLOWED: RateDecision = { allowed: true };

/** What a refused request is told, whatever it asked for. */
export const tooManyRequestsMessage = (retryAfterSeconds: number) =>
  `Too many requests. Please try again in ${retryAfterSeconds} seconds.`;

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
    return ALLOWED;
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
  }
}

/** Refused if any count refuses, with the longest wait among them. */
function strictest(decisions: RateDecision[]): RateDecision {
  let waits = 0;
  for (const decision of decisions) if (!decision.allowed) waits = Math.max(waits, decision.retryAfterSeconds);
  return waits > 0 ? { allowed: false, retryAfterSeconds: waits } : ALLOWED;
}

const KIND_OF_PATH = new Map<string, CostlyKind>(
  Object.entries(COSTLY_PROCEDURES).flatMap(([kind, paths]) => paths.map((path) => [path, kind as CostlyKind])),
);

export function createTrpcRateLimits(redis: Redis, settings: RateLimitSettings): TrpcRateLimits {
  const prefix = `${settings.keyPrefix}gateway:trpc`;
  const address = limiter(redis, `${prefix}:address`, settings.perAddress, settings.windowSeconds);
  const user = limiter(redis, `${prefix}:user`, settings.perUser, settings.windowSeconds);
  const costly = Object.fromEntries(
    Object.entries(settings.costlyPerUser).map(([kind, points]) => [
      kind,
      limiter(redis, `${prefix}:${kind}`, points, settings.windowSeconds),
    ]),
  ) as Record<CostlyKind, RateLimiterRedis>;
  return {
    byAddress: (ip, calls) => decide(() => address.consume(ip, calls)),
    async byUser(userId, paths) {
      const costlyCalls = new Map<CostlyKind, number>();
      for (const path of paths) {
        const kind = KIND_OF_PATH.get(path);
        if (kind) costlyCalls.set(kind, (costlyCalls.get(kind) ?? 0) + 1);
      }
      return strictest(
        await Promise.all([
          decide(() => user.consume(userId, paths.length)),
          ...[...costlyCalls].map(([kind, calls]) => decide(() => costly[kind].consume(userId, calls))),
        ]),
      );
    },
  };
}

export interface MediaRateLimitSettings {
  windowSeconds: number;
  /** Files a signed-in reader may ask for in a window. */
  perUser: number;
  /** Requests an address may make in a window without a session the gateway knows (each costs a lookup). */
  perAddress: number;
  /** REDIS_KEY_PREFIX. */
  keyPrefix: string;
}

/** The counts of GET /media/…. */
export interface MediaRateLimits {
  byAddress(address: string): Promise<RateDecision>;
  byUser(userId: string): Promise<RateDecision>;
}

export function createMediaRateLimits(redis: Redis, settings: MediaRateLimitSettings): MediaRateLimits {
  const prefix = `${settings.keyPrefix}gateway:media`;
  const address = limiter(redis, `${prefix}:address`, settings.perAddress, settings.windowSeconds);
  const user = limiter(redis, `${prefix}:user`, settings.perUser, settings.windowSeconds);
  return {
    byAddress: (ip) => decide(() => address.consume(ip)),
    byUser: (userId) => decide(() => user.consume(userId)),
  };
}
