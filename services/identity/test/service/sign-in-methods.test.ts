// The configured sign-in methods (docs/product.md#auth-views): a social provider (GitLab, pointed at a local
// protocol-level OAuth provider with GITLAB_ISSUER) and a generic OAuth provider (`/sign-in/oauth2`)
// each sign a person in through a real redirect round trip; an unconfigured provider answers
// PROVIDER_NOT_FOUND; GET /public-config names exactly what is configured; and captcha, when configured,
// guards sign-up, sign-in and the password reset with the token in x-captcha-response. With Google configured,
// Google One Tap's callback takes only ID tokens Google signed for Engram's client.
import { createHmac } from 'node:crypto';
import { CAPTCHA_HEADER } from '@engram/contracts/auth-features';
import { type CaptchaFake, startCaptchaFake } from '@engram/testkit/captcha-fake';
import { cookiesAfter } from '@engram/testkit/mailbox';
import { type OAuthProviderFake, startOAuthProviderFake } from '@engram/testkit/oauth-provider-fake';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IdentityHarness, PASSWORD, startIdentityHarness, uniqueEmail } from '../harness.js';

describe('OAuth providers', () => {
  let identity: IdentityHarness;
  let gitlab: OAuthProviderFake;
  let acme: OAuthProviderFake;

  beforeAll(async () => {
    [gitlab, acme] = await Promise.all([startOAuthProviderFake(), startOAuthProviderFake()]);
    identity = await startIdentityHarness({
      signInMethods: {
        socialProviders: {
          gitlab: { clientId: gitlab.clientId, clientSecret: gitlab.clientSecret, issuer: gitlab.url },
        },
        genericOAuth: [
          {
            providerId: 'acme',
            name: 'Acme SSO',
            clientId: acme.clientId,
            clientSecret: acme.clientSecret,
            authorizationUrl: `${acme.url}/oauth/authorize`,
            tokenUrl: `${acme.url}/oauth/token`,
            userInfoUrl: `${acme.url}/userinfo`,
          },
        ],
        captcha: null,
      },
    });
  });
  afterAll(async () => {
    await identity?.stop();
    await Promise.all([gitlab?.stop(), acme?.stop()]);
  });

  /** Starts at `path`, goes to the provider and back, and returns the final answer and cookies. */
  async function roundTrip(path: string, body: Record<string, unknown>, cookie = '') {
    const started = await identity.post(path, { body: { callbackURL: '/dashboard', ...body }, cookie });
    expect(started.status).toBe(200);
    const { url, redirect } = (await started.json()) as { url: string; redirect: boolean };
    expect(redirect).toBe(true);
    const atProvider = await fetch(url, { redirect: 'manual' });
    expect(atProvider.status).toBe(302);
    const callback = new URL(atProvider.headers.get('location') ?? '');
    expect(callback.origin).toBe('http://localhost:3000');
    const back = await fetch(`${identity.httpUrl}${callback.pathname}${callback.search}`, {
      redirect: 'manual',
      headers: { cookie: cookiesAfter(started, cookie) },
    });
    return { back, cookie: cookiesAfter(back, cookiesAfter(started, cookie)) };
  }

  it('signs a person in with a social provider, creating their account once', async () => {
    const email = uniqueEmail('gitlabber');
    gitlab.signInAs({ id: '4242', email, name: 'Gita Lab' });
    const { back, cookie } = await roundTrip('/api/auth/sign-in/social', { provider: 'gitlab' });
    expect(back.status).toBe(302);
    expect(back.headers.get('location')).toBe('/dashboard');
    const session = await identity.getSession({ cookie });
    expect(session.user).toMatchObject({ email, name: 'Gita Lab' });
    const accounts = await identity.db.account.findMany({ where: { user: { email } } });
    expect(accounts.map((account) => [account.providerId, account.accountId])).toEqual([['gitlab', '4242']]);
    expect(gitlab.authorizations[0]?.get('redirect_uri')).toBe('http://localhost:3000/api/auth/callback/gitlab');

    const again = await roundTrip('/api/auth/sign-in/social', { provider: 'gitlab' });
    expect((await identity.getSession({ cookie: again.cookie })).user?.email).toBe(email);
    expect(await identity.db.user.count({ where: { email } })).toBe(1);
  });

  it('signs a person in with a generic OAuth provider at /sign-in/oauth2', async () => {
    const email = uniqueEmail('acme');
    acme.signInAs({ id: 'acme-7', email, name: 'Ace Me' });
    const { back, cookie } = await roundTrip('/api/auth/sign-in/oauth2', { providerId: 'acme' });
    expect(back.status).toBe(302);
    expect((await identity.getSession({ cookie })).user).toMatchObject({ email, name: 'Ace Me' });
  });

  it('links a generic provider to an account and unlinks it, but never the last way to sign in', async () => {
    const email = uniqueEmail('linker');
    const cookie = await identity.signUpVerified({ email, password: PASSWORD, name: 'Lin Ker' });
    acme.signInAs({ id: 'acme-linked', email, name: 'Lin Ker' });
    const { back, cookie: afterLink } = await roundTrip('/api/auth/oauth2/link', { providerId: 'acme' }, cookie);
    expect(back.status).toBe(302);
    const linked = await identity.db.account.findMany({ where: { user: { email } }, orderBy: { providerId: 'asc' } });
    expect(linked.map((account) => account.providerId)).toEqual(['acme', 'credential']);
    const unlinked = await identity.post('/api/auth/unlink-account', {
      body: { providerId: 'acme', accountId: linked[0]?.id },
      cookie: afterLink,
    });
    expect(unlinked.status).toBe(200);

    const socialOnly = uniqueEmail('social-only');
    gitlab.signInAs({ id: '777', email: socialOnly, name: 'Solo' });
    const { cookie: soloCookie } = await roundTrip('/api/auth/sign-in/social', { provider: 'gitlab' });
    const [only] = await identity.db.account.findMany({ where: { user: { email: socialOnly } } });
    const last = await identity.post('/api/auth/unlink-account', {
      body: { providerId: 'gitlab', accountId: only?.id },
      cookie: soloCookie,
    });
    expect(last.status).toBe(400);
    expect(await last.json()).toMatchObject({ code: 'FAILED_TO_UNLINK_LAST_ACCOUNT' });
  });

  it('answers PROVIDER_NOT_FOUND for a provider that is not configured', async () => {
    for (const [path, body] of [
      ['/api/auth/sign-in/social', { provider: 'github' }],
      ['/api/auth/sign-in/social', { provider: 'nonsense' }],
      ['/api/auth/sign-in/oauth2', { providerId: 'nonsense' }],
    ] as const) {
      const refused = await identity.post(path, { body: { ...body, callbackURL: '/dashboard' } });
      expect(refused.status, JSON.stringify(body)).toBe(404);
      expect(await refused.json()).toMatchObject({ code: 'PROVIDER_NOT_FOUND' });
    }
  });

  it('tells the web app which providers are configured', async () => {
    const answer = await identity.get('/api/auth/public-config');
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({
      socialProviders: ['gitlab'],
      genericOAuthProviders: [{ providerId: 'acme', name: 'Acme SSO' }],
      captcha: null,
      passkey: true,
      apiKey: true,
      multiSession: true,
      twoFactor: ['totp', 'otp'],
      magicLink: true,
      emailOTP: true,
      username: true,
      phoneNumber: true,
    });
  });
});

describe('Google One Tap', () => {
  let identity: IdentityHarness;
  const clientId = '1234567890-engram.apps.googleusercontent.com';

  beforeAll(async () => {
    identity = await startIdentityHarness({
      signInMethods: {
        socialProviders: { google: { clientId, clientSecret: 'google-secret' } },
        genericOAuth: [],
        captcha: null,
      },
    });
  });
  afterAll(() => identity?.stop());

  /** A JWT of these claims, signed with a key of ours (not Google's). */
  const forged = (claims: Record<string, unknown>) => {
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`;
    return `${unsigned}.${createHmac('sha256', 'not-google').update(unsigned).digest('base64url')}`;
  };

  it('signs in only with an ID token Google signed for this client: anything else is refused and creates nobody', async () => {
    const users = await identity.db.user.count();
    const now = Math.floor(Date.now() / 1000);
    for (const idToken of [
      'not-a-token',
      forged({
        iss: 'https://accounts.google.com',
        aud: clientId,
        sub: '42',
        email: 'mallory@example.com',
        iat: now,
        exp: now + 600,
      }),
    ]) {
      const refused = await identity.post('/api/auth/one-tap/callback', { body: { idToken } });
      expect(refused.status, idToken).toBe(400);
      expect(await refused.json()).toMatchObject({ message: 'invalid id token' });
    }
    expect(await identity.db.user.count()).toBe(users);
  });

  it('is not there without Google', async () => {
    const plain = await startIdentityHarness();
    try {
      expect((await plain.post('/api/auth/one-tap/callback', { body: { idToken: 'x' } })).status).toBe(404);
    } finally {
      await plain.stop();
    }
  });
});

describe('captcha', () => {
  let identity: IdentityHarness;
  let provider: CaptchaFake;

  beforeAll(async () => {
    provider = await startCaptchaFake();
    identity = await startIdentityHarness({
      signInMethods: {
        socialProviders: {},
        genericOAuth: [],
        captcha: {
          provider: 'cloudflare-turnstile',
          secretKey: provider.secretKey,
          siteKey: provider.siteKey,
          verifyUrl: provider.url,
          minScore: 0.5,
        },
      },
    });
  });
  afterAll(async () => {
    await identity?.stop();
    await provider?.stop();
  });

  const signUp = (email: string, token?: string) =>
    identity.post('/api/auth/sign-up/email', {
      body: { email, password: PASSWORD, name: 'Cap Tcha' },
      headers: token === undefined ? {} : { [CAPTCHA_HEADER]: token },
    });

  it('refuses sign-up without a token, and with one the provider does not vouch for; nothing is created', async () => {
    const email = uniqueEmail('robot');
    const missing = await signUp(email);
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ code: 'MISSING_RESPONSE' });
    const forged = await signUp(email, 'forged-token');
    expect(forged.status).toBe(403);
    expect(await forged.json()).toMatchObject({ code: 'VERIFICATION_FAILED' });
    expect(await identity.db.user.count({ where: { email } })).toBe(0);
  });

  it('lets a solved challenge through, once, sending the secret to the provider', async () => {
    const email = uniqueEmail('human');
    const token = provider.solve();
    expect((await signUp(email, token)).status).toBe(200);
    expect(provider.verifications.at(-1)?.get('secret')).toBe(provider.secretKey);
    const replayed = await identity.post('/api/auth/sign-in/email', {
      body: { email, password: PASSWORD },
      headers: { [CAPTCHA_HEADER]: token },
    });
    expect(replayed.status).toBe(403);
  });

  it('guards sign-in by username and the password reset request too, and leaves other endpoints alone', async () => {
    const byUsername = await identity.post('/api/auth/sign-in/username', {
      body: { username: 'somebody', password: PASSWORD },
    });
    expect(byUsername.status).toBe(400);
    expect(await byUsername.json()).toMatchObject({ code: 'MISSING_RESPONSE' });
    const reset = await identity.post('/api/auth/request-password-reset', {
      body: { email: uniqueEmail('reset'), redirectTo: '/auth/reset-password' },
    });
    expect(reset.status).toBe(400);
    expect((await identity.get('/api/auth/get-session')).status).toBe(200);
  });

  it('answers that the service is unavailable while the provider is down', async () => {
    provider.setDown(true);
    try {
      const answer = await signUp(uniqueEmail('outage'), provider.solve());
      expect(answer.status).toBe(503);
      expect(await answer.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    } finally {
      provider.setDown(false);
    }
  });

  it('tells the web app the provider and site key, never the secret', async () => {
    const config = await (await identity.get('/api/auth/public-config')).json();
    expect(config).toMatchObject({
      captcha: { provider: 'cloudflare-turnstile', siteKey: provider.siteKey, enterprise: false, recaptchaNet: false },
    });
    expect(JSON.stringify(config)).not.toContain(provider.secretKey);
  });
});
