// API keys through the real gateway and identity (docs/product.md#states-and-transitions): a key created on the
// account page calls the tRPC API in header x-api-key as its owner, sees only the owner's cards, and is refused
// with the catalogue's codes once disabled, used up or rate-limited; a banned owner's key is refused like their
// session. Every use is counted by identity, so nothing about a key is remembered by the gateway.
import { randomBytes } from 'node:crypto';
import { API_KEY_HEADER } from '@engram/contracts/auth-features';
import { createPool } from '@engram/kit/db';
import { signUpThroughGateway, startTestStack, TEST_PASSWORD, type TestStack } from '@engram/testkit/stack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authClient, type Json } from '../support/auth-client.js';
import { trpcClient } from '../support/trpc-client.js';

let stack: TestStack;
let auth: ReturnType<typeof authClient>;
const adminEmail = `admin-${randomBytes(4).toString('hex')}@example.com`;

beforeAll(async () => {
  // A stack of its own: identity makes this file's address an admin (ADMIN_EMAILS, read at its start).
  stack = await startTestStack({ extraEnv: { ADMIN_EMAILS: adminEmail } });
  auth = authClient(stack);
});
afterAll(() => stack?.stop());

/** A tRPC query with only an API key, as a script would send it. */
async function withKey(key: string, path: string, input: unknown = {}) {
  const response = await fetch(`${stack.url}/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, {
    headers: { [API_KEY_HEADER]: key },
  });
  return { status: response.status, body: (await response.json()) as Json };
}

async function createKey(cookie: string, body: Record<string, unknown> = { name: 'script' }) {
  const response = await auth.post('/api-key/create', body, cookie);
  expect(response.status).toBe(200);
  return (await response.json()) as { key: string; id: string };
}

/** What only the server may set on a key (its limits), as an operator would in identity's schema. */
async function setKeyLimits(id: string, limits: { remaining?: number; rateLimitMax?: number }) {
  const pool = createPool(`${stack.databaseUrl}?schema=identity`);
  try {
    await pool.query(
      `UPDATE identity.api_keys SET remaining = COALESCE($2, remaining), rate_limit_max = COALESCE($3, rate_limit_max),
         rate_limit_time_window = 3600000 WHERE id = $1`,
      [id, limits.remaining ?? null, limits.rateLimitMax ?? null],
    );
  } finally {
    await pool.end();
  }
}

describe('calling the API with a key', () => {
  it("acts as the key's owner and sees only their cards", async () => {
    const owner = await signUpThroughGateway(stack.url, 'keyowner');
    const other = await signUpThroughGateway(stack.url, 'otherone');
    await trpcClient(stack.url, owner).mutate('cards.create', { front: 'mine', back: 'a' });
    await trpcClient(stack.url, other).mutate('cards.create', { front: 'theirs', back: 'b' });
    const { key } = await createKey(owner);

    const listed = await withKey(key, 'cards.list');
    expect(listed.status).toBe(200);
    expect(listed.body.result.data.items.map((card: Json) => card.front)).toEqual(['mine']);
  });

  it('is refused without a valid key, and once its owner disables it', async () => {
    const owner = await signUpThroughGateway(stack.url, 'disabler');
    const { key, id } = await createKey(owner);
    const unknown = await withKey('engram_nonsense', 'cards.list');
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.data).toMatchObject({ code: 'UNAUTHORIZED', reason: 'INVALID_API_KEY' });

    expect((await auth.post('/api-key/update', { keyId: id, enabled: false }, owner)).status).toBe(200);
    const disabled = await withKey(key, 'cards.list');
    expect(disabled.status).toBe(401);
    expect(disabled.body.error.data).toMatchObject({ reason: 'KEY_DISABLED' });
  });

  it('counts every request: a used-up key and a rate-limited key get 429 with their reasons', async () => {
    const owner = await signUpThroughGateway(stack.url, 'counter');
    const counted = await createKey(owner);
    await setKeyLimits(counted.id, { remaining: 1 });
    expect((await withKey(counted.key, 'cards.list')).status).toBe(200);
    const usedUp = await withKey(counted.key, 'cards.list');
    expect(usedUp.status).toBe(429);
    expect(usedUp.body.error.data).toMatchObject({ code: 'TOO_MANY_REQUESTS', reason: 'USAGE_EXCEEDED' });

    const limited = await createKey(owner, { name: 'limited' });
    await setKeyLimits(limited.id, { rateLimitMax: 2 });
    expect((await withKey(limited.key, 'cards.list')).status).toBe(200);
    expect((await withKey(limited.key, 'cards.list')).status).toBe(200);
    const third = await withKey(limited.key, 'cards.list');
    expect(third.status).toBe(429);
    expect(third.body.error.data).toMatchObject({ reason: 'RATE_LIMITED' });
  });
});

describe("a key's scopes", () => {
  /** A tRPC mutation with only an API key. */
  async function mutateWithKey(key: string, path: string, input: unknown) {
    const response = await fetch(`${stack.url}/api/trpc/${path}`, {
      method: 'POST',
      headers: { [API_KEY_HEADER]: key, 'content-type': 'application/json' },
      body: JSON.stringify(input),
    });
    return { status: response.status, body: (await response.json()) as Json };
  }

  it('lets a new key read and write but not generate, and a read-only key change nothing', async () => {
    const owner = await signUpThroughGateway(stack.url, 'scopes');
    const { key, id } = await createKey(owner);
    const made = await mutateWithKey(key, 'cards.create', { front: 'by key', back: 'b' });
    expect(made.status).toBe(200);
    const generating = await mutateWithKey(key, 'ai.generate', { text: 'Photosynthesis makes sugar from light.' });
    expect(generating.status).toBe(403);
    expect(generating.body.error.data).toMatchObject({ reason: 'API_KEY_SCOPE_MISSING' });
    expect(generating.body.error.message).toBe(
      'This API key cannot generate cards: give it the generate scope on the API keys page.',
    );

    expect((await auth.post('/api-key/set-scopes', { keyId: id, scopes: ['read'] }, owner)).status).toBe(200);
    expect((await withKey(key, 'cards.list')).status).toBe(200);
    const refused = await mutateWithKey(key, 'cards.create', { front: 'refused', back: 'b' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe(
      'This API key cannot change anything: give it the write scope on the API keys page.',
    );
    const listed = await withKey(key, 'cards.list');
    expect(listed.body.result.data.items.map((card: Json) => card.front)).toEqual(['by key']);
    // Anki tools need read and write.
    const anki = await fetch(`${stack.url}/api/anki-connect`, {
      method: 'POST',
      body: JSON.stringify({ action: 'deckNames', version: 6, key }),
    });
    expect(await anki.json()).toEqual({
      result: null,
      error: 'This API key cannot be used by Anki tools: give it the read and write scopes on the API keys page.',
    });
  });
});

describe('a banned user', () => {
  let admin: string;
  beforeAll(async () => {
    admin = await signUpThroughGateway(stack.url, 'admin', adminEmail);
  });

  it('keeps the session, marked banned, and is refused by every API call, with it or with a key', async () => {
    const email = `banned-${randomBytes(4).toString('hex')}@example.com`;
    const cookie = await signUpThroughGateway(stack.url, 'banned', email);
    const { key } = await createKey(cookie);
    const { user } = await auth.session(cookie);

    const banned = await auth.post('/admin/ban-user', { userId: user.id, banReason: 'abuse' }, admin);
    expect(banned.status).toBe(200);

    const byCookie = await auth.trpc('cards.list', cookie);
    expect(byCookie.status).toBe(403);
    expect(byCookie.body.error.message).toBe('You have been banned from this application');
    // The code the web app reacts to (it sends the user to /suspended).
    expect(byCookie.body.error.data).toMatchObject({ code: 'FORBIDDEN', reason: 'BANNED_USER' });
    const byKey = await withKey(key, 'cards.list');
    expect(byKey.status).toBe(403);
    expect(byKey.body.error.message).toBe('You have been banned from this application');
    expect((await auth.session(cookie)).user).toMatchObject({ banned: true });
    const signIn = await auth.post('/sign-in/email', { email, password: TEST_PASSWORD });
    expect(signIn.status).toBe(403);
    expect(await signIn.json()).toMatchObject({ code: 'BANNED_USER' });
  });

  it('is refused by the auth API too, with the kept session or with a key, and makes no organization', async () => {
    const email = `banned-${randomBytes(4).toString('hex')}@example.com`;
    const cookie = await signUpThroughGateway(stack.url, 'orgspammer', email);
    const { key } = await createKey(cookie);
    const { user } = await auth.session(cookie);
    expect((await auth.post('/admin/ban-user', { userId: user.id }, admin)).status).toBe(200);

    const organization = { name: 'Spam Inc', slug: `spam-${randomBytes(4).toString('hex')}` };
    const byCookie = await auth.post('/organization/create', organization, cookie);
    const byKey = await fetch(`${stack.url}/api/auth/organization/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: stack.url, [API_KEY_HEADER]: key },
      body: JSON.stringify(organization),
    });
    for (const refused of [byCookie, byKey]) {
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({
        code: 'BANNED_USER',
        message: 'You have been banned from this application',
      });
    }
    const pool = createPool(`${stack.databaseUrl}?schema=identity`);
    try {
      const { rows } = await pool.query('SELECT count(*)::int AS n FROM identity.organizations WHERE slug = $1', [
        organization.slug,
      ]);
      expect(rows[0].n).toBe(0);
    } finally {
      await pool.end();
    }
  });
});
