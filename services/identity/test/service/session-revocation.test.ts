// Every session identity ends is announced, by token, on the revocation channel the gateways listen to
// (under the installation's key prefix): sign-out, revoking one or all sessions, deleting the account.
// Nothing else is: codes and links being used up are not sessions.
import { SESSION_REVOKED_CHANNEL } from '@engram/contracts/auth';
import { codeIn } from '@engram/testkit/mailbox';
import { waitUntil } from '@engram/testkit/wait';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cookieFrom, type IdentityHarness, PASSWORD, startIdentityHarness, uniqueEmail } from '../harness.js';

let identity: IdentityHarness;
let subscriber: Redis;
const announced: string[] = [];

beforeAll(async () => {
  identity = await startIdentityHarness();
  subscriber = identity.redis.duplicate();
  subscriber.on('message', (_channel: string, token: string) => announced.push(token));
  await subscriber.subscribe(`${identity.redisKeyPrefix}${SESSION_REVOKED_CHANNEL}`);
});
afterAll(async () => {
  subscriber?.disconnect();
  await identity?.stop();
});
beforeEach(() => {
  announced.length = 0;
});

const tokenOf = (cookie: string) =>
  decodeURIComponent(/better-auth\.session_token=([^;]+)/.exec(cookie)?.[1] ?? '').split('.')[0];

async function signIn(email: string) {
  const response = await identity.post('/api/auth/sign-in/email', { body: { email, password: PASSWORD } });
  expect(response.status).toBe(200);
  return cookieFrom(response);
}

const signedUp = (label: string) => identity.signedUpUser(label);

const announcedAll = (tokens: (string | undefined)[]) =>
  waitUntil(`${tokens.length} revocations announced`, () =>
    tokens.every((token) => token && announced.includes(token)),
  );

describe('announcing ended sessions', () => {
  it('announces a session that signs out', async () => {
    const { cookie } = await signedUp('leaving');
    await identity.post('/api/auth/sign-out', { cookie });
    await announcedAll([tokenOf(cookie)]);
    // Signing out also ends every account of the device (multi-session), this one among them: it may be
    // announced twice, which costs a gateway nothing.
    expect(new Set(announced)).toEqual(new Set([tokenOf(cookie)]));
  });

  it('announces another session the user revokes, and not their own', async () => {
    const { email, cookie: laptop } = await signedUp('two-devices');
    const phone = await signIn(email);
    const response = await identity.post('/api/auth/revoke-session', {
      cookie: laptop,
      body: { token: tokenOf(phone) },
    });
    expect(response.status).toBe(200);
    await announcedAll([tokenOf(phone)]);
    expect(announced).toEqual([tokenOf(phone)]);
    expect((await identity.getSession({ cookie: laptop })).authenticated).toBe(true);
  });

  it('announces every session of an account that is deleted', async () => {
    const { email, cookie: laptop } = await signedUp('deleting');
    const phone = await signIn(email);
    const response = await identity.post('/api/auth/delete-user', { cookie: laptop, body: { password: PASSWORD } });
    expect(response.status).toBe(200);
    await announcedAll([tokenOf(laptop), tokenOf(phone)]);
    expect(announced.toSorted()).toEqual([tokenOf(laptop), tokenOf(phone)].toSorted());
  });

  it('announces nothing when a mailed code is used up', async () => {
    const email = uniqueEmail('coded');
    await identity.post('/api/auth/email-otp/send-verification-otp', { body: { email, type: 'sign-in' } });
    const otp = codeIn(await identity.nextMail(email, /code/));
    const signedIn = await identity.post('/api/auth/sign-in/email-otp', { body: { email, otp } });
    expect(signedIn.status).toBe(200);
    // The sign-out's announcement comes after anything the sign-in might have announced.
    await identity.post('/api/auth/sign-out', { cookie: cookieFrom(signedIn) });
    await announcedAll([tokenOf(cookieFrom(signedIn))]);
    expect(new Set(announced)).toEqual(new Set([tokenOf(cookieFrom(signedIn))]));
  });
});
