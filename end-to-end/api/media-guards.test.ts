// Card files (GET /media/<id>/<name>) through the real gateway, guarded as every call is: a banned learner
// is refused their files with the ban's code, and a reader who asks for too many files, or an address that
// asks for too many without a session, gets 429 with Retry-After, counted in Redis apart from the calls'.
// The tests share one window of counts (the limits below are set for this file).
import { randomBytes } from 'node:crypto';
import { silentWav } from '@engram/testkit/media-files';
import { signUpThroughGateway, startTestStack, type TestStack } from '@engram/testkit/stack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authClient } from '../support/auth-client.ts';
import { webTrpcClient } from '../support/trpc-client.ts';

const PER_USER = 4;
const PER_ADDRESS = 6;
const WINDOW_SECONDS = 120;
const adminEmail = `admin-${randomBytes(4).toString('hex')}@example.com`;

let stack: TestStack;
let ipv4: string;

beforeAll(async () => {
  // A stack of its own: identity makes this file's address an admin (ADMIN_EMAILS, read at its start), and the
  // gateway's low media limits are counted in Redis under the stack's prefix, which every gateway of it shares.
  stack = await startTestStack({
    extraEnv: {
      ADMIN_EMAILS: adminEmail,
      MEDIA_RATE_LIMIT_PER_USER: String(PER_USER),
      MEDIA_RATE_LIMIT_PER_ADDRESS: String(PER_ADDRESS),
      MEDIA_RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
    },
  });
  // Always over IPv4: `localhost` may reach the gateway as 127.0.0.1 or as ::1, two addresses with two counts.
  ipv4 = stack.url.replace('//localhost:', '//127.0.0.1:');
});
afterAll(() => stack?.stop());

/** A sound kept by `cookie`'s learner, as the card editor keeps one. */
async function keepSound(cookie: string) {
  const api = webTrpcClient(stack.url, cookie);
  const bytes = silentWav(2000);
  const slot = await api.media.createUpload.mutate({
    name: 'bonjour.wav',
    size: bytes.length,
    contentType: 'audio/wav',
    purpose: 'card',
  });
  const put = await fetch(slot.url, { method: 'PUT', headers: { ...slot.headers, origin: stack.url }, body: bytes });
  expect(put.status).toBe(200);
  return api.media.finishUpload.mutate({ uploadId: slot.uploadId });
}

const read = (path: string, headers: Record<string, string> = {}) => fetch(`${ipv4}${path}`, { headers });

async function expectTooMany(answer: Response) {
  expect(answer.status).toBe(429);
  const retryAfter = Number(answer.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
  expect(await answer.json()).toEqual({
    code: 'TOO_MANY_REQUESTS',
    message: `Too many requests. Please try again in ${retryAfter} seconds.`,
  });
}

describe('a banned learner', () => {
  it('is refused their own card files with the ban, as by every call', async () => {
    const auth = authClient(stack);
    const admin = await signUpThroughGateway(stack.url, 'media-admin', adminEmail);
    const cookie = await signUpThroughGateway(stack.url, 'media-banned');
    const sound = await keepSound(cookie);
    expect((await read(sound.path, { cookie })).status).toBe(200);

    const { user } = await auth.session(cookie);
    expect((await auth.post('/admin/ban-user', { userId: user.id, banReason: 'abuse' }, admin)).status).toBe(200);
    const refused = await read(sound.path, { cookie });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      code: 'BANNED_USER',
      message: 'You have been banned from this application',
    });
  });
});

describe('card file rate limits', () => {
  it("answer a reader past their limit with 429 and Retry-After, and leave the calls' budget alone", async () => {
    const cookie = await signUpThroughGateway(stack.url, 'media-reader');
    const sound = await keepSound(cookie);
    for (let i = 0; i < PER_USER; i++) expect((await read(sound.path, { cookie })).status).toBe(200);
    await expectTooMany(await read(sound.path, { cookie }));
    // The limit is the reader's, wherever they ask from.
    await expectTooMany(await read(sound.path, { cookie, 'x-forwarded-for': '203.0.113.9' }));
    expect((await authClient(stack).trpc('cards.list', cookie)).status).toBe(200);
  });

  it('count the requests of an address without a session, whatever X-Forwarded-For it claims', async () => {
    const path = '/media/00000000-0000-4000-8000-000000000000/x.png';
    // Sign-ups and sessions not yet known may have spent some of this address's count already.
    const statuses: number[] = [];
    for (let i = 0; i <= PER_ADDRESS && statuses.at(-1) !== 429; i++) {
      statuses.push((await read(path, { 'x-forwarded-for': `198.51.100.${i + 1}` })).status);
    }
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, -1).every((status) => status === 404)).toBe(true);
    await expectTooMany(await read(path));
    // A made-up session costs the address too: it is counted before identity is asked.
    await expectTooMany(await read(path, { cookie: 'better-auth.session_token=made-up.signature' }));
  });
});
