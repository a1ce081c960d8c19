// API keys (docs/product.md#states-and-transitions): a signed-in user creates one (the key itself is shown once), and
// ResolveApiKey, which the gateway calls on every request carrying the key, answers with its owner
// while the key is usable and refuses it, with the catalogue's codes, once it is disabled, expired, used up
// or over its rate limit; a refill gives uses back. The client cannot set server-only properties. A key's scopes
// (read and write when made; its owner changes them) come with its owner.
import { unary } from '@engram/kit/grpc/client';
import { grpcFailure } from '@engram/testkit/grpc';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IdentityHarness, startIdentityHarness } from '../harness.js';

let identity: IdentityHarness;

beforeAll(async () => {
  identity = await startIdentityHarness();
});
afterAll(() => identity?.stop());

const signedUp = (label: string) => identity.signedUpUser(label);

async function resolve(key: string) {
  return unary(
    identity.client,
    identity.client.resolveApiKey,
    { key },
    {
      token: await identity.signer.signSystem('gateway', 'identity'),
    },
  );
}

/** A key created by the server with properties only it may set. */
async function serverKey(userId: string, body: Record<string, unknown>) {
  return identity.auth.api.createApiKey({ body: { userId, name: 'server', ...body } });
}

describe('creating a key', () => {
  it('shows the key once and resolves it to its owner', async () => {
    const { cookie, id, email } = await signedUp('creator');
    const created = await identity.post('/api/auth/api-key/create', {
      body: { name: 'My script', metadata: { purpose: 'export' }, expiresIn: 7 * 24 * 3600 },
      cookie,
    });
    expect(created.status).toBe(200);
    const key = (await created.json()) as { key: string; id: string; name: string; prefix: string; expiresAt: string };
    expect(key).toMatchObject({ name: 'My script', prefix: 'engram_' });
    expect(key.key).toMatch(/^engram_/);

    const listed = (await (await identity.get('/api/auth/api-key/list', cookie)).json()) as
      | { apiKeys: Record<string, unknown>[] }
      | Record<string, unknown>[];
    const keys = Array.isArray(listed) ? listed : listed.apiKeys;
    expect(keys).toEqual([expect.objectContaining({ id: key.id, name: 'My script', metadata: { purpose: 'export' } })]);
    expect(JSON.stringify(keys)).not.toContain(key.key);
    const stored = await identity.db.apikey.findUniqueOrThrow({ where: { id: key.id } });
    expect(stored.key).not.toBe(key.key);

    expect(await resolve(key.key)).toEqual({
      keyId: key.id,
      user: { id, email, name: 'creator', role: 'user', banned: false, emailVerified: true },
      scopes: ['read', 'write'],
    });
  });

  it('refuses server-only properties, metadata that is not an object, and a refill amount without its interval', async () => {
    const { cookie, id } = await signedUp('client');
    for (const body of [
      { name: 'more', remaining: 1000 },
      { name: 'fast', rateLimitMax: 1_000_000 },
      { name: 'refill', refillAmount: 10, refillInterval: 60_000 },
    ]) {
      const refused = await identity.post('/api/auth/api-key/create', { body, cookie });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ code: 'SERVER_ONLY_PROPERTY' });
    }
    const badMetadata = await identity.post('/api/auth/api-key/create', {
      body: { name: 'm', metadata: 'text' },
      cookie,
    });
    expect(badMetadata.status).toBe(400);
    expect(await badMetadata.json()).toMatchObject({ code: 'INVALID_METADATA_TYPE' });
    await expect(serverKey(id, { refillAmount: 5 })).rejects.toMatchObject({
      body: { code: 'REFILL_AMOUNT_AND_INTERVAL_REQUIRED' },
    });
    expect(await identity.db.apikey.count({ where: { referenceId: id } })).toBe(0);
  });

  it('refuses a name longer than 32 characters', async () => {
    const { cookie } = await signedUp('long');
    const refused = await identity.post('/api/auth/api-key/create', { body: { name: 'x'.repeat(33) }, cookie });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 'INVALID_NAME_LENGTH' });
  });
});

describe('using a key', () => {
  it('refuses an unknown key', async () => {
    const failure = await grpcFailure(resolve('engram_not-a-key'));
    expect(failure).toMatchObject({ code: status.UNAUTHENTICATED, reason: 'INVALID_API_KEY' });
  });

  it('refuses a key its owner disabled, and accepts it again once enabled', async () => {
    const { cookie } = await signedUp('disabler');
    const { key, id } = (await (
      await identity.post('/api/auth/api-key/create', { body: { name: 'toggle' }, cookie })
    ).json()) as { key: string; id: string };
    const disabled = await identity.post('/api/auth/api-key/update', { body: { keyId: id, enabled: false }, cookie });
    expect(disabled.status).toBe(200);
    expect(await grpcFailure(resolve(key))).toMatchObject({ code: status.UNAUTHENTICATED, reason: 'KEY_DISABLED' });
    await identity.post('/api/auth/api-key/update', { body: { keyId: id, enabled: true }, cookie });
    expect((await resolve(key)).keyId).toBe(id);
  });

  it('refuses an expired key', async () => {
    const { id: userId } = await signedUp('expiring');
    const { key, id } = await serverKey(userId, { expiresIn: 24 * 3600 });
    await identity.db.apikey.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    expect(await grpcFailure(resolve(key))).toMatchObject({ code: status.UNAUTHENTICATED, reason: 'KEY_EXPIRED' });
  });

  it('counts every use against the remaining count, and refuses the key when none are left', async () => {
    const { id: userId } = await signedUp('counted');
    const { key, id } = await serverKey(userId, { remaining: 2 });
    await resolve(key);
    expect((await identity.db.apikey.findUniqueOrThrow({ where: { id } })).remaining).toBe(1);
    await resolve(key);
    expect(await grpcFailure(resolve(key))).toMatchObject({
      code: status.RESOURCE_EXHAUSTED,
      reason: 'USAGE_EXCEEDED',
    });
  });

  it('gives uses back when the refill interval has passed', async () => {
    const { id: userId } = await signedUp('refilled');
    const { key, id } = await serverKey(userId, { remaining: 1, refillAmount: 3, refillInterval: 3_600_000 });
    await resolve(key);
    expect(await grpcFailure(resolve(key))).toMatchObject({ reason: 'USAGE_EXCEEDED' });
    const anHourAgo = new Date(Date.now() - 3_600_001);
    await identity.db.apikey.update({ where: { id }, data: { lastRefillAt: anHourAgo, createdAt: anHourAgo } });
    expect((await resolve(key)).keyId).toBe(id);
    expect((await identity.db.apikey.findUniqueOrThrow({ where: { id } })).remaining).toBe(2);
  });

  it('refuses a key over its rate limit until the window has passed', async () => {
    const { id: userId } = await signedUp('limited');
    const { key, id } = await serverKey(userId, {
      rateLimitEnabled: true,
      rateLimitMax: 2,
      rateLimitTimeWindow: 60_000,
    });
    await resolve(key);
    await resolve(key);
    expect(await grpcFailure(resolve(key))).toMatchObject({ code: status.RESOURCE_EXHAUSTED, reason: 'RATE_LIMITED' });
    await identity.db.apikey.update({ where: { id }, data: { lastRequest: new Date(Date.now() - 61_000) } });
    expect((await resolve(key)).keyId).toBe(id);
  });

  it('refuses the keys of a deleted user', async () => {
    const { id: userId } = await signedUp('gone');
    const { key } = await serverKey(userId, {});
    await identity.db.user.delete({ where: { id: userId } });
    expect(await grpcFailure(resolve(key))).toMatchObject({ code: status.UNAUTHENTICATED, reason: 'INVALID_API_KEY' });
  });
});

describe('scopes', () => {
  const create = async (cookie: string) =>
    (await (await identity.post('/api/auth/api-key/create', { body: { name: 'tool' }, cookie })).json()) as {
      key: string;
      id: string;
    };

  it('starts a key with read and write, and lets its owner choose among read, write and generate', async () => {
    const { cookie } = await signedUp('scoper');
    const key = await create(cookie);
    const set = await identity.post('/api/auth/api-key/set-scopes', {
      body: { keyId: key.id, scopes: ['read', 'generate'] },
      cookie,
    });
    expect(set.status).toBe(200);
    expect(await set.json()).toEqual({ id: key.id, scopes: ['read', 'generate'] });
    expect((await resolve(key.key)).scopes).toEqual(['read', 'generate']);
    const listed = (await (await identity.get('/api/auth/api-key/list', cookie)).json()) as {
      apiKeys: { permissions: unknown }[];
    };
    expect(listed.apiKeys[0]?.permissions).toEqual({ engram: ['read', 'generate'] });
  });

  it('refuses no scope, an unknown scope, the client setting permissions itself, and another owner’s key', async () => {
    const owner = await signedUp('scopeowner');
    const other = await signedUp('scopeother');
    const key = await create(owner.cookie);
    for (const scopes of [[], ['admin']]) {
      const refused = await identity.post('/api/auth/api-key/set-scopes', {
        body: { keyId: key.id, scopes },
        cookie: owner.cookie,
      });
      expect(refused.status).toBe(400);
    }
    const direct = await identity.post('/api/auth/api-key/update', {
      body: { keyId: key.id, permissions: { engram: ['read', 'write', 'generate'] } },
      cookie: owner.cookie,
    });
    expect(await direct.json()).toMatchObject({ code: 'SERVER_ONLY_PROPERTY' });
    const stolen = await identity.post('/api/auth/api-key/set-scopes', {
      body: { keyId: key.id, scopes: ['read', 'write', 'generate'] },
      cookie: other.cookie,
    });
    expect(stolen.status).toBe(404);
    const signedOut = await identity.post('/api/auth/api-key/set-scopes', {
      body: { keyId: key.id, scopes: ['read'] },
    });
    expect(signedOut.status).toBe(401);
    expect((await resolve(key.key)).scopes).toEqual(['read', 'write']);
  });

  it('gives a key made before scopes existed all of them', async () => {
    const { cookie } = await signedUp('oldkey');
    const key = await create(cookie);
    await identity.db.apikey.update({ where: { id: key.id }, data: { permissions: null } });
    expect((await resolve(key.key)).scopes).toEqual(['read', 'write', 'generate']);
  });
});
