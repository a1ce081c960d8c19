// What the auth screens offer follows identity's public-config: only configured providers get buttons,
// the captcha widget guards the same requests identity checks, and features identity turned off stay off.
import { CAPTCHA_ENDPOINTS, type PublicAuthConfig } from '@engram/contracts/auth-features';
import { describe, expect, it } from 'vitest';
import { addingAccount, featureProps } from '../../src/lib/auth-ui/features.ts';

const NOTHING_CONFIGURED: PublicAuthConfig = {
  socialProviders: [],
  genericOAuthProviders: [],
  captcha: null,
  passkey: true,
  apiKey: true,
  multiSession: true,
  twoFactor: ['totp', 'otp'],
  magicLink: true,
  emailOTP: true,
  username: true,
  phoneNumber: false,
};
const signIn = async () => undefined;

describe('the auth screens’ features', () => {
  it('show no provider button and no captcha until identity has answered, or when none is configured', () => {
    expect(featureProps(undefined, signIn)).toEqual({});
    const props = featureProps(NOTHING_CONFIGURED, signIn);
    expect(props).not.toHaveProperty('social');
    expect(props).not.toHaveProperty('genericOAuth');
    expect(props).not.toHaveProperty('captcha');
    expect(props).toMatchObject({ passkey: true, apiKey: { prefix: 'engram_' }, multiSession: true });
  });

  it('give buttons to exactly the configured social and generic providers', () => {
    const props = featureProps(
      {
        ...NOTHING_CONFIGURED,
        socialProviders: ['github', 'gitlab'],
        genericOAuthProviders: [{ providerId: 'acme', name: 'Acme SSO' }],
      },
      signIn,
    );
    expect(props.social).toEqual({ providers: ['github', 'gitlab'] });
    expect(props.genericOAuth).toEqual({ providers: [{ provider: 'acme', name: 'Acme SSO' }], signIn });
  });

  it('render the configured captcha on the requests identity checks', () => {
    const captcha = { provider: 'hcaptcha' as const, siteKey: 'site', enterprise: false, recaptchaNet: false };
    expect(featureProps({ ...NOTHING_CONFIGURED, captcha }, signIn).captcha).toEqual({
      ...captcha,
      endpoints: CAPTCHA_ENDPOINTS,
    });
  });

  it('keep API keys, passkeys and the account switcher off when identity says so', () => {
    expect(
      featureProps({ ...NOTHING_CONFIGURED, apiKey: false, passkey: false, multiSession: false }, signIn),
    ).toMatchObject({ apiKey: false, passkey: false, multiSession: false });
  });
});

describe('adding an account', () => {
  it('lets the account switcher open sign-in while signed in, and nothing else', () => {
    expect(addingAccount('/auth/sign-in', '/account/settings')).toBe('/auth/sign-in?addAccount=1');
    expect(addingAccount('/auth/sign-in', '/dashboard')).toBe('/auth/sign-in');
    expect(addingAccount('/auth/sign-up', '/account/settings')).toBe('/auth/sign-up');
  });
});
