// Social and generic OAuth sign-in in a real Chromium through the real gateway and identity, against a
// protocol-level OAuth provider (testkit): only the configured providers get buttons (public-config), and
// each button goes to the provider and back with a real redirect round trip, signing a new person up.
import { randomBytes } from 'node:crypto';
import { launchBrowser, openTestPage } from '@engram/testkit/browser';
import { type OAuthProviderFake, startOAuthProviderFake } from '@engram/testkit/oauth-provider-fake';
import { startTestStack, type TestStack } from '@engram/testkit/stack';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let provider: OAuthProviderFake;
let stack: TestStack;
let browser: Browser;

beforeAll(async () => {
  provider = await startOAuthProviderFake();
  const oauthProviders = [
    {
      providerId: 'acme',
      name: 'Acme SSO',
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      authorizationUrl: `${provider.url}/oauth/authorize`,
      tokenUrl: `${provider.url}/oauth/token`,
      userInfoUrl: `${provider.url}/userinfo`,
    },
  ];
  // A stack and a Chromium of its own: identity signs in with this file's OAuth provider stand-in.
  [stack, browser] = await Promise.all([
    startTestStack({
      extraEnv: {
        GITLAB_CLIENT_ID: provider.clientId,
        GITLAB_CLIENT_SECRET: provider.clientSecret,
        GITLAB_ISSUER: provider.url,
        OAUTH_PROVIDERS: JSON.stringify(oauthProviders),
      },
    }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await provider?.stop();
});

const person = (label: string) => {
  const suffix = randomBytes(4).toString('hex');
  return { id: `${label}-${suffix}`, email: `${label}-${suffix}@example.com`, name: `${label} Person` };
};

describe('signing in with an OAuth provider', () => {
  it('shows only the configured providers', async () => {
    const page = await openTestPage(browser, 'oauth-buttons', { locale: 'en-US' });
    await page.goto(`${stack.url}/auth/sign-in`);
    await page.getByRole('button', { name: 'Sign in with GitLab' }).waitFor();
    await page.getByRole('button', { name: 'Sign in with Acme SSO' }).waitFor();
    expect(await page.getByRole('button', { name: 'Sign in with GitHub' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Sign in with Google' }).count()).toBe(0);
  });

  for (const [button, label] of [
    ['Sign in with GitLab', 'gitlab'],
    ['Sign in with Acme SSO', 'acme'],
  ] as const) {
    it(`signs a new person up through ${label} and back`, async () => {
      const page = await openTestPage(browser, `oauth-${label}`, { locale: 'en-US' });
      const who = person(label);
      provider.signInAs(label === 'gitlab' ? { ...who, id: String(Date.now()) } : who);
      await page.goto(`${stack.url}/auth/sign-in`);
      const authorizationsBefore = provider.authorizations.length;
      await page.getByRole('button', { name: button }).click();
      await page.waitForURL(`${stack.url}/onboarding`);
      await page.getByText(who.email).first().waitFor();
      // One trip to the provider: a second would reuse the state the first callback already spent.
      expect(provider.authorizations.length - authorizationsBefore).toBe(1);
    });
  }
});
