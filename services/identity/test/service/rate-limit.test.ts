// better-auth's rate limits are on whatever NODE_ENV says (vitest runs with NODE_ENV=test), and counted
// in Redis, so two replicas of identity (two better-auth instances sharing nothing but Redis) refuse the
// same address together: for signing in, and for asking for mailed codes.
import { randomBytes } from 'node:crypto';
import { testContext } from '@engram/testkit/context';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IdentityHarness, startIdentityHarness } from '../harness.js';

const SIGN_IN_MAX = 3;
let replicas: IdentityHarness[];

beforeAll(async () => {
  const shared = {
    rateLimit: { windowSeconds: 60, max: 100, signInMax: SIGN_IN_MAX },
    redisKeyPrefix: `${testContext().subjectPrefix}${randomBytes(3).toString('hex')}:`,
  };
  replicas = await Promise.all([startIdentityHarness(shared), startIdentityHarness(shared)]);
});
afterAll(() => Promise.all(replicas?.map((replica) => replica.stop()) ?? []));

/** A failed sign-in as the gateway forwards it, from `address`. */
function signIn(replica: IdentityHarness, address: string) {
  return fetch(`${replica.httpUrl}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'http://localhost:3000', 'x-forwarded-for': address },
    body: JSON.stringify({ email: 'nobody@example.com', password: 'not the password' }),
  });
}

describe('sign-in rate limit', () => {
  it('refuses an address past the limit with 429 and X-Retry-After, counted across replicas', async () => {
    const [first, second] = replicas as [IdentityHarness, IdentityHarness];
    const address = '198.51.100.7';
    expect((await signIn(first, address)).status).toBe(401);
    expect((await signIn(second, address)).status).toBe(401);
    expect((await signIn(first, address)).status).toBe(401);

    const refused = await signIn(second, address);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('x-retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await signIn(second, '198.51.100.8')).status).toBe(401);
  });
});

describe('mailed code rate limit', () => {
  it('refuses a fourth code for one address within the window, counted across replicas', async () => {
    const [first, second] = replicas as [IdentityHarness, IdentityHarness];
    const address = '198.51.100.9';
    const askForCode = (replica: IdentityHarness) =>
      fetch(`${replica.httpUrl}/api/auth/email-otp/send-verification-otp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'http://localhost:3000', 'x-forwarded-for': address },
        body: JSON.stringify({ email: 'someone@example.com', type: 'sign-in' }),
      });
    expect((await askForCode(first)).status).toBe(200);
    expect((await askForCode(second)).status).toBe(200);
    expect((await askForCode(first)).status).toBe(200);
    expect((await askForCode(second)).status).toBe(429);
  });
});
