// From identity's public-config to better-auth-ui's props: which buttons and screens the auth and account
// views show (only what works), and the one signed-in way into the sign-in view ("Add account").
import type { AuthUIProviderProps } from '@daveyplate/better-auth-ui';
import { API_KEY_DEFAULT_PREFIX, CAPTCHA_ENDPOINTS, type PublicAuthConfig } from '@engram/contracts/auth-features';
import { ACCOUNT_BASE_PATH, AUTH_BASE_PATH } from '../auth-views';

/** better-auth-ui hands it `{ providerId, callbackURL }` (typed unknown: 1.7 has no generic OAuth client plugin). */
type GenericSignIn = (params: unknown) => Promise<unknown>;

export type FeatureProps = Partial<
  Pick<AuthUIProviderProps, 'social' | 'genericOAuth' | 'captcha' | 'passkey' | 'apiKey' | 'multiSession'>
>;

/** The better-auth-ui props of the features identity says are on (public-config.ts); none while unknown. */
export function featureProps(
  config: PublicAuthConfig | undefined,
  signInWithGenericProvider: GenericSignIn,
): FeatureProps {
  if (!config) return {};
  return {
    ...(config.socialProviders.length > 0 && { social: { providers: config.socialProviders } }),
    ...(config.genericOAuthProviders.length > 0 && {
      genericOAuth: {
        providers: config.genericOAuthProviders.map(({ providerId, name }) => ({ provider: providerId, name })),
        signIn: signInWithGenericProvider,
      },
    }),
    ...(config.captcha && { captcha: { ...config.captcha, endpoints: CAPTCHA_ENDPOINTS } }),
    passkey: config.passkey,
    apiKey: config.apiKey ? { prefix: API_KEY_DEFAULT_PREFIX } : false,
    multiSession: config.multiSession,
  };
}

/**
 * "Add account" (several accounts on one device) opens sign-in while signed in; the auth route lets a
 * signed-in user in only with addAccount set (routes/auth.tsx).
 */
export function addingAccount(href: string, from: string): string {
  return href === `${AUTH_BASE_PATH}/sign-in` && from.startsWith(`${ACCOUNT_BASE_PATH}/`)
    ? `${href}?addAccount=1`
    : href;
}
