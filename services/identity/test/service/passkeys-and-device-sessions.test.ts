// Passkeys with a software authenticator: a signed-in user registers one, lists,
// renames and deletes it, and signs in with it; a forged assertion or one without its challenge is
// refused. Several accounts on one device (multi-session): the browser keeps both, lists them, switches
// the active one and signs one out without the other.
import { cookiesAfter } from '@engram/testkit/mailbox';
import {
  type AuthenticationOptions,
  createSoftwareAuthenticator,
  type RegistrationOptions,
} from '@engram/testkit/webauthn-authenticator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IdentityHarness, PASSWORD, PUBLIC_BASE_URL, startIdentityHarness } from '../harness.js';

let identity: IdentityHarness;

beforeAll(async () => {
  identity = await startIdentityHarness();
});
afterAll(() => identity?.stop());

const signedUp = (label: string) => identity.signedUpUser(label);

describe('passkeys', () => {
  async function registered(label: string) {
    const user = await signedUp(label);
    const authenticator = createSoftwareAuthenticator(PUBLIC_BASE_URL);
    const options = await identity.get('/api/auth/passkey/generate-register-options', user.cookie);
    expect(options.status).toBe(200);
    const cookie = cookiesAfter(options, user.cookie);
    const response = authenticator.register((await options.json()) as RegistrationOptions);
    const verified = await identity.post('/api/auth/passkey/verify-registration', {
      body: { response, name: 'Laptop' },
      cookie,
    });
    expect(verified.status).toBe(200);
    return { ...user, cookie: cookiesAfter(verified, cookie), authenticator };
  }

  async function signInWithPasskey(authenticator: ReturnType<typeof createSoftwareAuthenticator>) {
    const options = await identity.get('/api/auth/passkey/generate-authenticate-options');
    const cookie = cookiesAfter(options);
    const response = authenticator.authenticate((await options.json()) as AuthenticationOptions);
    const answer = await identity.post('/api/auth/passkey/verify-authentication', { body: { response }, cookie });
    return { answer, cookie: cookiesAfter(answer, cookie) };
  }

  it('registers a passkey, lists and renames it, and signs in with it', async () => {
    const { email, cookie, authenticator } = await registered('passkeyed');
    const listed = (await (await identity.get('/api/auth/passkey/list-user-passkeys', cookie)).json()) as {
      id: string;
      name: string;
    }[];
    expect(listed).toEqual([expect.objectContaining({ name: 'Laptop' })]);
    const renamed = await identity.post('/api/auth/passkey/update-passkey', {
      body: { id: listed[0]?.id, name: 'Work laptop' },
      cookie,
    });
    expect(renamed.status).toBe(200);

    const { answer, cookie: signedIn } = await signInWithPasskey(authenticator);
    expect(answer.status).toBe(200);
    expect((await identity.getSession({ cookie: signedIn })).user?.email).toBe(email);
    const stored = await identity.db.passkey.findFirstOrThrow({ where: { user: { email } } });
    expect(stored).toMatchObject({ name: 'Work laptop', counter: 1 });
  });

  it('refuses a signature the credential did not make, and an answer without its challenge', async () => {
    const { authenticator } = await registered('forger');
    const options = await identity.get('/api/auth/passkey/generate-authenticate-options');
    const response = authenticator.authenticate((await options.json()) as AuthenticationOptions);
    const forged = {
      ...response,
      response: { ...response.response, signature: Buffer.alloc(70, 1).toString('base64url') },
    };
    const refused = await identity.post('/api/auth/passkey/verify-authentication', {
      body: { response: forged },
      cookie: cookiesAfter(options),
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 'AUTHENTICATION_FAILED' });
    const noChallenge = await identity.post('/api/auth/passkey/verify-authentication', { body: { response } });
    expect(noChallenge.status).toBe(400);
    expect(await noChallenge.json()).toMatchObject({ code: 'CHALLENGE_NOT_FOUND' });
  });

  it('deletes a passkey, which then signs nobody in', async () => {
    const { cookie, authenticator } = await registered('deleter');
    const [passkey] = (await (await identity.get('/api/auth/passkey/list-user-passkeys', cookie)).json()) as {
      id: string;
    }[];
    expect(
      (await identity.post('/api/auth/passkey/delete-passkey', { body: { id: passkey?.id }, cookie })).status,
    ).toBe(200);
    const { answer } = await signInWithPasskey(authenticator);
    expect(answer.status).toBe(401);
    expect(await answer.json()).toMatchObject({ code: 'PASSKEY_NOT_FOUND' });
  });
});

describe('several accounts on one device', () => {
  it('keeps both signed in, switches the active one, and signs one out without the other', async () => {
    const ana = await signedUp('ana');
    const bea = await signedUp('bea');
    const secondSignIn = await identity.post('/api/auth/sign-in/email', {
      body: { email: bea.email, password: PASSWORD },
      cookie: ana.cookie,
    });
    expect(secondSignIn.status).toBe(200);
    let device = cookiesAfter(secondSignIn, ana.cookie);
    expect((await identity.getSession({ cookie: device })).user?.email).toBe(bea.email);

    const sessions = (await (await identity.get('/api/auth/multi-session/list-device-sessions', device)).json()) as {
      session: { token: string };
      user: { email: string };
    }[];
    expect(sessions.map((s) => s.user.email).sort()).toEqual([ana.email, bea.email].sort());
    const token = (email: string) => sessions.find((s) => s.user.email === email)?.session.token;

    const switched = await identity.post('/api/auth/multi-session/set-active', {
      body: { sessionToken: token(ana.email) },
      cookie: device,
    });
    expect(switched.status).toBe(200);
    device = cookiesAfter(switched, device);
    expect((await identity.getSession({ cookie: device })).user?.email).toBe(ana.email);

    const revoked = await identity.post('/api/auth/multi-session/revoke', {
      body: { sessionToken: token(bea.email) },
      cookie: device,
    });
    expect(revoked.status).toBe(200);
    device = cookiesAfter(revoked, device);
    const left = (await (await identity.get('/api/auth/multi-session/list-device-sessions', device)).json()) as {
      user: { email: string };
    }[];
    expect(left.map((s) => s.user.email)).toEqual([ana.email]);
    expect((await identity.getSession({ cookie: device })).user?.email).toBe(ana.email);
  });
});
