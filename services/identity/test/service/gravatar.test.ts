// The avatar's Gravatar fallback comes from Engram's own origin: identity asks Gravatar (here a fake of its
// HTTP endpoint) for the signed-in user's picture, so the learner's browser never contacts gravatar.com.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type IdentityHarness, PASSWORD, startIdentityHarness, uniqueEmail } from '../harness.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

/** Gravatar's avatar endpoint: a PNG for the hashes it knows, 404 for the rest; it notes what it was asked. */
let asked: string[] = [];
let pictures = new Map<string, { type: string; body: Buffer }>();
let fake: Server;
let identity: IdentityHarness;

beforeAll(async () => {
  fake = createServer((req, res) => {
    asked.push(req.url ?? '');
    const hash = new URL(req.url ?? '/', 'http://x').pathname.split('/').pop() ?? '';
    const picture = pictures.get(hash);
    if (!picture) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': picture.type }).end(picture.body);
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/avatar`;
  identity = await startIdentityHarness({ gravatar: { baseUrl, timeoutMs: 2000 } });
});
afterAll(async () => {
  await identity?.stop();
  fake?.close();
});
beforeEach(() => {
  asked = [];
  pictures = new Map();
});

const hashOf = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest('hex');

describe("the signed-in user's Gravatar", () => {
  it('is served from Engram at the size asked for, looked up by the hash of their own email', async () => {
    const email = uniqueEmail('Gravatar.Owner');
    const cookie = await identity.signUpVerified({ email, password: PASSWORD, name: 'Owner' });
    pictures.set(hashOf(email), { type: 'image/png', body: PNG });

    const response = await identity.get('/api/auth/gravatar?size=96', cookie);

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('cache-control')).toBe('private, max-age=3600');
    expect(Buffer.from(await response.arrayBuffer())).toEqual(PNG);
    expect(asked).toEqual([`/avatar/${hashOf(email)}?s=96&d=404`]);
  });

  it('answers 204 (no picture, no error) when the address has no Gravatar, so the avatar shows initials', async () => {
    const cookie = await identity.signUpVerified({ email: uniqueEmail('no-picture'), password: PASSWORD, name: 'N' });
    const response = await identity.get('/api/auth/gravatar?size=96', cookie);
    expect(response.status).toBe(204);
    expect(asked).toHaveLength(1);
  });

  it('passes on nothing but a picture', async () => {
    const email = uniqueEmail('odd-answer');
    const cookie = await identity.signUpVerified({ email, password: PASSWORD, name: 'O' });
    pictures.set(hashOf(email), { type: 'text/html', body: Buffer.from('<script>alert(1)</script>') });
    expect((await identity.get('/api/auth/gravatar?size=96', cookie)).status).toBe(204);
  });

  it('is refused to a signed-out visitor without asking Gravatar', async () => {
    const response = await identity.get('/api/auth/gravatar?size=96');
    expect(response.status).toBe(401);
    expect(asked).toEqual([]);
  });

  it('refuses a size outside Gravatar’s 1–2048 pixels', async () => {
    const cookie = await identity.signUpVerified({ email: uniqueEmail('sizes'), password: PASSWORD, name: 'S' });
    expect((await identity.get('/api/auth/gravatar?size=0', cookie)).status).toBe(400);
    expect((await identity.get('/api/auth/gravatar?size=2049', cookie)).status).toBe(400);
    expect(asked).toEqual([]);
  });
});
