// The environment of the optional sign-in methods: every provider of SOCIAL_PROVIDERS is turned on by
// its id and secret, half a configuration stops the service with a message naming what is missing, and
// OAUTH_PROVIDERS and CAPTCHA_* are read as documented.
import { SOCIAL_PROVIDERS } from '@engram/contracts/auth-features';
import { ConfigError, parseConfig } from '@engram/kit/config';
import { describe, expect, it } from 'vitest';
import {
  captchaVars,
  genericOAuthVars,
  signInMethodsOf,
  socialProviderVars,
} from '../../src/auth/sign-in-methods-config.js';

const shape = { ...socialProviderVars, ...genericOAuthVars, ...captchaVars };
const methods = (env: Record<string, string>) => signInMethodsOf(parseConfig('identity', shape, env));
const problemsOf = (env: Record<string, string>) => {
  try {
    methods(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

describe('social providers', () => {
  it('turns on each provider of the catalogue by its client id and secret, and none without', () => {
    expect(methods({}).socialProviders).toEqual({});
    const env = Object.fromEntries(
      SOCIAL_PROVIDERS.flatMap((p) => [
        [`${p.toUpperCase()}_CLIENT_ID`, `${p}-id`],
        [`${p.toUpperCase()}_CLIENT_SECRET`, `${p}-secret`],
      ]),
    );
    const all = methods(env).socialProviders;
    expect(Object.keys(all)).toEqual([...SOCIAL_PROVIDERS]);
    expect(all.tiktok).toEqual({ clientId: 'tiktok-id', clientSecret: 'tiktok-secret' });
  });

  it('names the missing half of a provider', () => {
    expect(problemsOf({ GITHUB_CLIENT_ID: 'x' })).toEqual([
      'GITHUB_CLIENT_SECRET: is required when GITHUB_CLIENT_ID is set',
    ]);
    expect(problemsOf({ ZOOM_CLIENT_SECRET: 'x' })).toEqual([
      'ZOOM_CLIENT_ID: is required when ZOOM_CLIENT_SECRET is set',
    ]);
  });

  it('points GitLab at a self-hosted instance', () => {
    expect(
      methods({ GITLAB_CLIENT_ID: 'i', GITLAB_CLIENT_SECRET: 's', GITLAB_ISSUER: 'https://git.example.com' })
        .socialProviders.gitlab,
    ).toEqual({ clientId: 'i', clientSecret: 's', issuer: 'https://git.example.com' });
  });
});

describe('generic OAuth providers', () => {
  it('reads OAUTH_PROVIDERS, naming a provider by its id when it has no name', () => {
    const env = {
      OAUTH_PROVIDERS: JSON.stringify([
        {
          providerId: 'keycloak',
          clientId: 'c',
          clientSecret: 's',
          discoveryUrl: 'https://id.example.com/.well-known/openid-configuration',
        },
      ]),
    };
    expect(methods(env).genericOAuth).toEqual([
      expect.objectContaining({ providerId: 'keycloak', name: 'keycloak', clientId: 'c' }),
    ]);
  });

  it('refuses JSON that is not a list of providers, a provider without endpoints, and a social provider id', () => {
    expect(() => parseConfig('identity', shape, { OAUTH_PROVIDERS: '{nope' })).toThrow(/OAUTH_PROVIDERS: must be JSON/);
    expect(() =>
      parseConfig('identity', shape, { OAUTH_PROVIDERS: JSON.stringify([{ providerId: 'x', clientId: 'c' }]) }),
    ).toThrow(/needs discoveryUrl, or authorizationUrl and tokenUrl/);
    expect(
      problemsOf({
        OAUTH_PROVIDERS: JSON.stringify([
          {
            providerId: 'github',
            clientId: 'c',
            authorizationUrl: 'https://a.example/a',
            tokenUrl: 'https://a.example/t',
          },
        ]),
      }),
    ).toEqual(['OAUTH_PROVIDERS: "github" is a social provider; use GITHUB_CLIENT_ID']);
  });
});

describe('captcha', () => {
  it('is off unless configured, and needs both keys with its provider', () => {
    expect(methods({}).captcha).toBeNull();
    expect(problemsOf({ CAPTCHA_PROVIDER: 'hcaptcha' })).toEqual([
      'CAPTCHA_SECRET_KEY: is required when CAPTCHA_PROVIDER is set',
      'CAPTCHA_SITE_KEY: is required when CAPTCHA_PROVIDER is set',
    ]);
    expect(problemsOf({ CAPTCHA_SITE_KEY: 'k' })).toEqual([
      'CAPTCHA_PROVIDER: is required when CAPTCHA_SECRET_KEY or CAPTCHA_SITE_KEY is set',
    ]);
    expect(
      methods({ CAPTCHA_PROVIDER: 'google-recaptcha-v3', CAPTCHA_SECRET_KEY: 's', CAPTCHA_SITE_KEY: 'k' }).captcha,
    ).toEqual({ provider: 'google-recaptcha-v3', secretKey: 's', siteKey: 'k', verifyUrl: undefined, minScore: 0.5 });
  });

  it('knows the five captcha providers only', () => {
    expect(() => parseConfig('identity', shape, { CAPTCHA_PROVIDER: 'captchafox' })).toThrow(/CAPTCHA_PROVIDER/);
  });
});
