// The identity service in-process on a fresh schema of the run's database: better-auth's HTTP server
// (what browsers reach through the gateway) and the gRPC server (what the gateway calls), with a key
// pair of its own so tests sign internal tokens exactly as the gateway does.
import { randomBytes } from 'node:crypto';
import { unary } from '@engram/kit/grpc/client';
import { IdentityServiceClient } from '@engram/proto/identity/v1/identity';
import { testContext } from '@engram/testkit/context';
import { startServiceUnderTest } from '@engram/testkit/service';
import { createAuth } from '../src/auth.js';
import { createDb } from '../src/db.js';
import { startAuthHttpServer } from '../src/http/server.js';
import { createRedis, redisSecondaryStorage } from '../src/secondary-storage.js';
import { identityService } from '../src/server.js';

/** The public origin the auth is configured with; browsers send it as Origin. */
export const PUBLIC_BASE_URL = 'http://localhost:3000';

export interface SignUp {
  email: string;
  password: string;
  name: string;
}

/** Limits far above what a test sends, unless the test is about them. */
const ROOMY_RATE_LIMIT = { windowSeconds: 10, max: 10_000, signInMax: 10_000 };

/** `redisUrl` defaults to the run's Redis; sessions and rate-limit counters go there, as in production. */
export async function startIdentityHarness(
  options: {
    redisUrl?: string;
    rateLimit?: { windowSeconds: number; max: number; signInMax: number };
    /** Shared by harnesses that stand for replicas of one installation; otherwise one of its own. */
    redisKeyPrefix?: string;
  } = {},
) {
  const redisKeyPrefix = options.redisKeyPrefix ?? `${testContext().subjectPrefix}${randomBytes(3).toString('hex')}:`;
  const service = await startServiceUnderTest({
    service: 'identity',
    migrationsDir: new URL('../prisma/migrations', import.meta.url).pathname,
    async start({ databaseUrl, serverOptions, logger }) {
      const db = createDb(databaseUrl);
      const redis = createRedis(options.redisUrl ?? testContext().redisUrl);
      redis.on('error', () => {}); // a test may stop its private Redis on purpose
      const auth = createAuth(db, {
        secret: randomBytes(32).toString('base64url'),
        publicBaseUrl: PUBLIC_BASE_URL,
        checkPwnedPasswords: false,
        secondaryStorage: redisSecondaryStorage(redis, redisKeyPrefix),
        rateLimit: options.rateLimit ?? ROOMY_RATE_LIMIT,
        logger,
      });
      const http = await startAuthHttpServer(auth, 0, logger);
      return {
        services: [identityService(auth, serverOptions)],
        resources: { db, http },
        async close() {
          await http.close();
          await db.$disconnect();
          redis.disconnect();
        },
      };
    },
  });
  const { db, http } = service.resources;
  const signer = service.signer;
  const client = service.client(IdentityServiceClient);
  const httpUrl = `http://127.0.0.1:${http.port}`;

  /** A request to the auth HTTP server, as a browser on `origin` would send it through the gateway. */
  const post = (path: string, init: { body?: unknown; cookie?: string; origin?: string } = {}) =>
    fetch(`${httpUrl}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: init.origin ?? PUBLIC_BASE_URL,
        ...(init.cookie ? { cookie: init.cookie } : {}),
      },
      body: JSON.stringify(init.body ?? {}),
    });

  return {
    db,
    signer,
    httpUrl,
    client,
    post,
    signUp: (body: SignUp) => post('/api/auth/sign-up/email', { body }),
    /** GetSession as the gateway calls it: with a system token of its own. */
    getSession: async (request: { cookie?: string; authorization?: string }) =>
      unary(
        client,
        client.getSession,
        { cookie: request.cookie ?? '', authorization: request.authorization ?? '' },
        { token: await signer.signSystem('gateway', 'identity') },
      ),
    stop: service.stop,
  };
}

/** The Cookie header a browser would send back after `response` (name=value of every Set-Cookie). */
export function cookieFrom(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((header) => header.split(';')[0])
    .join('; ');
}

export function uniqueEmail(label: string): string {
  return `${label}-${randomBytes(4).toString('hex')}@example.com`;
}

export type IdentityHarness = Awaited<ReturnType<typeof startIdentityHarness>>;
