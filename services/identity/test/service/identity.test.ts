// The identity service: signing up over better-auth's HTTP API (an address is verified before it signs
// in), and resolving the resulting session over gRPC for the gateway (and for nobody else).
import { unary } from '@engram/kit/grpc/client';
import { createInternalTokenSigner, generateInternalKeys } from '@engram/kit/internal-auth';
import { grpcFailure } from '@engram/testkit/grpc';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieFrom, type IdentityHarness, PASSWORD, startIdentityHarness, uniqueEmail } from '../harness.js';

let identity: IdentityHarness;

beforeAll(async () => {
  identity = await startIdentityHarness();
});
afterAll(() => identity?.stop());

const signedUp = (label: string) => identity.signedUpUser(label, `${label} Example`);

const SIGNED_OUT = { authenticated: false, sessionId: '', user: undefined, activeOrganizationId: '' };

describe('signing up and resolving the session', () => {
  it('signs a new user in only once the emailed link verified the address', async () => {
    const email = uniqueEmail('unverified');
    const response = await identity.signUp({ email, password: PASSWORD, name: 'Una Verified' });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ token: null, user: { email, emailVerified: false } });
    expect(response.headers.getSetCookie()).toEqual([]);

    const early = await identity.post('/api/auth/sign-in/email', { body: { email, password: PASSWORD } });
    expect(early.status).toBe(403);
    expect(await early.json()).toMatchObject({ code: 'EMAIL_NOT_VERIFIED' });
  });

  it('signs a verified user in with a session cookie that GetSession resolves to that user', async () => {
    const { email, name, cookie } = await signedUp('ada');
    expect(cookie).toMatch(/better-auth\.session_token=/);

    const session = await identity.getSession({ cookie });
    const stored = await identity.db.user.findUniqueOrThrow({ where: { email }, include: { sessions: true } });
    expect(session).toEqual({
      authenticated: true,
      sessionId: stored.sessions[0]?.id,
      user: { id: stored.id, email, name, role: 'user', banned: false, emailVerified: true },
      activeOrganizationId: '',
    });
  });

  it('keeps the sessions of a user an admin bans, marked banned, and refuses their next sign-in', async () => {
    const mallory = await signedUp('mallory');
    const admin = await signedUp('admin');
    await identity.db.user.update({ where: { email: admin.email }, data: { role: 'admin' } });
    const adminSignIn = await identity.post('/api/auth/sign-in/email', {
      body: { email: admin.email, password: PASSWORD },
    });
    const adminCookie = cookieFrom(adminSignIn);
    expect((await identity.getSession({ cookie: adminCookie })).user?.role).toBe('admin');

    const { id } = await identity.db.user.findUniqueOrThrow({ where: { email: mallory.email } });
    const ban = await identity.post('/api/auth/admin/ban-user', { body: { userId: id }, cookie: adminCookie });
    expect(ban.status).toBe(200);

    expect((await identity.getSession({ cookie: mallory.cookie })).user).toMatchObject({ id, banned: true });
    const again = await identity.post('/api/auth/sign-in/email', {
      body: { email: mallory.email, password: PASSWORD },
    });
    expect(again.status).toBe(403);
  });

  it('answers signed out when the request carries no cookie', async () => {
    expect(await identity.getSession({})).toEqual(SIGNED_OUT);
  });

  it('answers signed out for a cookie that names no session', async () => {
    expect(await identity.getSession({ cookie: 'better-auth.session_token=garbage.not-signed' })).toEqual(SIGNED_OUT);
    expect(await identity.getSession({ cookie: 'unrelated=1' })).toEqual(SIGNED_OUT);
  });

  it('answers signed out once the user has signed out', async () => {
    const { cookie } = await signedUp('grace');
    expect((await identity.getSession({ cookie })).authenticated).toBe(true);

    const response = await identity.post('/api/auth/sign-out', { cookie });
    expect(response.status).toBe(200);
    expect(await identity.getSession({ cookie })).toEqual(SIGNED_OUT);
  });
});

describe('who may call GetSession', () => {
  const request = { cookie: '', authorization: '' };

  it('rejects a call that carries no internal token', async () => {
    const error = await grpcFailure(unary(identity.client, identity.client.getSession, request));
    expect(error.code).toBe(status.UNAUTHENTICATED);
  });

  it('rejects a token signed with a key the service does not trust', async () => {
    const stranger = await createInternalTokenSigner((await generateInternalKeys()).privateJwk);
    const token = await stranger.signSystem('gateway', 'identity');
    const error = await grpcFailure(unary(identity.client, identity.client.getSession, request, { token }));
    expect(error.code).toBe(status.UNAUTHENTICATED);
  });

  it('rejects a token meant for another service', async () => {
    const token = await identity.signer.signSystem('gateway', 'cards');
    const error = await grpcFailure(unary(identity.client, identity.client.getSession, request, { token }));
    expect(error.code).toBe(status.UNAUTHENTICATED);
  });
});

describe('sign-up validation', () => {
  it('refuses a password shorter than 8 characters and creates no user', async () => {
    const email = uniqueEmail('short');
    const response = await identity.signUp({ email, password: '1234567', name: 'Short' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'PASSWORD_TOO_SHORT' });
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(await identity.db.user.count({ where: { email } })).toBe(0);
  });

  it('accepts a password of exactly 8 characters', async () => {
    const email = uniqueEmail('eight');
    const response = await identity.signUp({ email, password: '12345678', name: 'Eight' });
    expect(response.status).toBe(200);
    expect(await identity.db.user.count({ where: { email } })).toBe(1);
  });

  it('signs up a burst of 40 people at once, every one of them', async () => {
    const emails = Array.from({ length: 40 }, (_, i) => uniqueEmail(`burst${i}`));
    const responses = await Promise.all(
      emails.map((email) => identity.signUp({ email, password: PASSWORD, name: 'Burst' })),
    );
    expect(responses.map((response) => response.status)).toEqual(emails.map(() => 200));
    expect(await identity.db.user.count({ where: { email: { in: emails } } })).toBe(40);
  });

  it('answers a sign-up for an address that has an account, whatever its case, like any other, and keeps one user', async () => {
    const { email } = await signedUp('linus');
    for (const again of [email, email.toUpperCase()]) {
      const response = await identity.signUp({ email: again, password: 'another password', name: 'Imposter' });
      // Verification is required, so the answer does not tell whether the address has an account.
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ token: null });
      expect(response.headers.getSetCookie()).toEqual([]);
    }
    const users = await identity.db.user.findMany({ where: { email: { equals: email, mode: 'insensitive' } } });
    expect(users.map((u) => u.name)).toEqual(['linus Example']);
  });
});

describe('cross-site requests', () => {
  it('refuses to sign out for a foreign Origin carrying the session cookie, and the session lives on', async () => {
    const { cookie } = await signedUp('alan');
    const response = await identity.post('/api/auth/sign-out', { cookie, origin: 'http://evil.example' });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: 'INVALID_ORIGIN' });
    expect((await identity.getSession({ cookie })).authenticated).toBe(true);
  });

  it('refuses a sign-up posted from a foreign Origin and creates no user', async () => {
    const email = uniqueEmail('forged');
    const response = await identity.post('/api/auth/sign-up/email', {
      body: { email, password: PASSWORD, name: 'Forged' },
      origin: 'http://evil.example',
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: 'INVALID_ORIGIN' });
    expect(await identity.db.user.count({ where: { email } })).toBe(0);
  });

  // What a cross-site HTML form or a "simple" fetch can send without a preflight: text/plain or
  // url-encoded bodies. Neither may sign anyone in or change an account.
  it.each([
    ['text/plain', (body: Record<string, string>) => JSON.stringify(body), 415],
    ['application/x-www-form-urlencoded', (body: Record<string, string>) => new URLSearchParams(body).toString(), 403],
  ])('refuses a sign-in posted as %s from a foreign Origin and starts no session', async (type, encode, status) => {
    const { email } = await signedUp('carol');
    const response = await fetch(`${identity.httpUrl}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': type, origin: 'http://evil.example' },
      body: encode({ email, password: PASSWORD }),
    });
    expect(response.status).toBe(status);
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it.each([
    ['text/plain', (body: Record<string, string>) => JSON.stringify(body), 415],
    ['application/x-www-form-urlencoded', (body: Record<string, string>) => new URLSearchParams(body).toString(), 415],
  ])(
    'refuses a change to the account posted as %s from a foreign Origin with the cookie, and changes nothing',
    async (type, encode, status) => {
      const { email, cookie } = await signedUp('dave');
      const response = await fetch(`${identity.httpUrl}/api/auth/update-user`, {
        method: 'POST',
        headers: { 'content-type': type, origin: 'http://evil.example', cookie },
        body: encode({ name: 'Forged Name' }),
      });
      expect(response.status).toBe(status);
      expect((await identity.db.user.findUniqueOrThrow({ where: { email } })).name).toBe('dave Example');
    },
  );

  it('refuses a state-changing call with the session cookie and no Origin or Referer', async () => {
    const { cookie } = await signedUp('barbara');
    const response = await fetch(`${identity.httpUrl}/api/auth/sign-out`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: '{}',
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: 'MISSING_OR_NULL_ORIGIN' });
    expect((await identity.getSession({ cookie })).authenticated).toBe(true);
  });
});

describe('the HTTP server', () => {
  it.each(['/', '/healthz', '/api/other', '/api/authx'])('answers 404 JSON at %s, outside /api/auth', async (path) => {
    const response = await fetch(`${identity.httpUrl}${path}`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ code: 'NOT_FOUND' });
  });
});
