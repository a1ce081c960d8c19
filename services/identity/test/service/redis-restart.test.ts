// Sessions live in PostgreSQL as well as Redis: a Redis restart (which keeps nothing on disk) must not
// sign anyone out, and while Redis is down a signed-in user stays signed in. Runs against a private
// redis-server, never the shared one.
import { type PrivateRedisServer, startPrivateRedisServer } from '@engram/testkit/redis-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type IdentityHarness, startIdentityHarness, uniqueEmail } from '../harness.js';

let redis: PrivateRedisServer;
let identity: IdentityHarness;

beforeAll(async () => {
  redis = await startPrivateRedisServer();
  identity = await startIdentityHarness({ redisUrl: redis.url });
});

afterAll(async () => {
  await identity?.stop();
  await redis?.stop();
});

it('keeps a user signed in across a Redis restart', async () => {
  const cookie = await identity.signUpVerified({
    email: uniqueEmail('redis'),
    password: 'long enough pw',
    name: 'Rae',
  });
  expect((await identity.getSession({ cookie })).authenticated).toBe(true);

  await redis.stop();
  await redis.start();

  const after = await identity.getSession({ cookie });
  expect(after.authenticated).toBe(true);
  expect(after.user?.name).toBe('Rae');
});

it('keeps a signed-in user signed in while Redis is down, and counts rate limits meanwhile', async () => {
  const cookie = await identity.signUpVerified({
    email: uniqueEmail('outage'),
    password: 'long enough pw',
    name: 'Otto',
  });
  await redis.stop();
  try {
    const during = await identity.getSession({ cookie });
    expect(during.authenticated).toBe(true);
    expect(during.user?.name).toBe('Otto');
    // better-auth counts this request against its limits: in memory, not as a failure.
    expect((await identity.get('/api/auth/get-session', cookie)).status).toBe(200);
  } finally {
    await redis.start();
  }
  expect((await identity.getSession({ cookie })).authenticated).toBe(true);
});

it('answers a sign-in that needs Redis while it is down with 503 and Retry-After (try again), then signs in once it is back', async () => {
  const email = uniqueEmail('retry');
  await identity.signUpVerified({ email, password: 'long enough pw', name: 'Rita' });
  const signIn = () => identity.post('/api/auth/sign-in/email', { body: { email, password: 'long enough pw' } });
  await redis.stop();
  try {
    const during = await signIn();
    expect(during.status).toBe(503);
    expect(during.headers.get('retry-after')).toBe('1');
    expect(await during.json()).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message: 'The service is unavailable right now. Please try again in a moment.',
    });
  } finally {
    await redis.start();
  }
  expect((await signIn()).status).toBe(200);
});
