// The optional sign-in methods as better-auth options: social providers, generic OAuth/OIDC providers
// and captcha, each from its configuration (sign-in-methods-config.ts) and absent without it.
import { CAPTCHA_ENDPOINTS } from '@engram/contracts/auth-features';
import type { BetterAuthOptions, BetterAuthPlugin } from 'better-auth';
import { captcha, genericOAuth, oneTap } from 'better-auth/plugins';
import { genericOAuthSignIn } from './generic-oauth-sign-in.js';
import type { CaptchaSettings, SignInMethods } from './sign-in-methods-config.js';

export const NO_SIGN_IN_METHODS: SignInMethods = { socialProviders: {}, genericOAuth: [], captcha: null };

/** better-auth's `socialProviders`: TikTok calls its client id a client key. */
export function socialProvidersOf(methods: SignInMethods): NonNullable<BetterAuthOptions['socialProviders']> {
  const providers: Record<string, unknown> = {};
  for (const [provider, settings] of Object.entries(methods.socialProviders)) {
    providers[provider] =
      provider === 'tiktok' ? { clientKey: settings.clientId, clientSecret: settings.clientSecret } : settings;
  }
  return providers as NonNullable<BetterAuthOptions['socialProviders']>;
}

/**
 * better-auth answers a provider it cannot reach (or one that answers nonsense) with 500 UNKNOWN_ERROR;
 * Engram answers 503 SERVICE_UNAVAILABLE in the words of better-auth's own internal code, since the
 * person can try again and nothing is wrong with the request.
 */
function unavailableNot500(plugin: BetterAuthPlugin): BetterAuthPlugin {
  const onRequest = plugin.onRequest;
  if (!onRequest) return plugin;
  return {
    ...plugin,
    async onRequest(request, ctx) {
      const result = await onRequest(request, ctx);
      if (!result || !('response' in result) || result.response.status !== 500) return result;
      const body = JSON.stringify({ code: 'SERVICE_UNAVAILABLE', message: 'CAPTCHA service unavailable' });
      return { response: new Response(body, { status: 503, headers: { 'content-type': 'application/json' } }) };
    },
  };
}

function captchaPlugin(settings: CaptchaSettings): BetterAuthPlugin {
  return unavailableNot500(captchaOf(settings));
}

function captchaOf(settings: CaptchaSettings): BetterAuthPlugin {
  const common = {
    secretKey: settings.secretKey,
    endpoints: CAPTCHA_ENDPOINTS,
    ...(settings.verifyUrl && { siteVerifyURLOverride: settings.verifyUrl }),
  };
  switch (settings.provider) {
    case 'cloudflare-turnstile':
      return captcha({ provider: 'cloudflare-turnstile', ...common });
    case 'hcaptcha':
      return captcha({ provider: 'hcaptcha', siteKey: settings.siteKey, ...common });
    default:
      // The three reCAPTCHA kinds verify alike; only v3 answers with a score.
      return captcha({ provider: 'google-recaptcha', minScore: settings.minScore, ...common });
  }
}

/**
 * The plugins of the configured methods; `/sign-in/oauth2` answers even with no generic provider. With Google
 * configured, Google One Tap signs in too (`/one-tap/callback`: the ID token Google's prompt gives the page,
 * checked against Google's keys for the Google client id).
 */
export function signInMethodPlugins(methods: SignInMethods): BetterAuthPlugin[] {
  return [
    ...(methods.socialProviders.google ? [oneTap()] : []),
    ...(methods.genericOAuth.length > 0
      ? [
          genericOAuth({
            config: methods.genericOAuth.map(({ pkce, ...provider }) => ({ ...provider, pkce: pkce ?? true })),
          }),
        ]
      : []),
    genericOAuthSignIn(),
    ...(methods.captcha ? [captchaPlugin(methods.captcha)] : []),
  ];
}
