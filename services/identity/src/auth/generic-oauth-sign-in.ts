// `POST /sign-in/oauth2` (docs/product.md#calls) (providerId, callbackURL) and its linking twin `/oauth2/link`, which
// better-auth-ui calls for generic OAuth/OIDC providers. better-auth 1.7's genericOAuth plugin adds those
// providers to the social ones instead of serving these paths, so they are answered here by the social
// endpoints: the same state, cookies and callback (`/callback/<providerId>`). An unknown providerId
// answers 404 PROVIDER_NOT_FOUND, as the social one does.
import type { BetterAuthPlugin, GenericEndpointContext } from 'better-auth';
import { createAuthEndpoint, linkSocialAccount, sessionMiddleware, signInSocial } from 'better-auth/api';
import { parseSetCookieHeader, toCookieOptions } from 'better-auth/cookies';
import { z } from 'zod';

const redirects = {
  callbackURL: z.string().optional(),
  errorCallbackURL: z.string().optional(),
  newUserCallbackURL: z.string().optional(),
  disableRedirect: z.boolean().optional(),
  scopes: z.array(z.string()).optional(),
};

type Ctx = GenericEndpointContext;
type SocialEndpoint = (ctx: never) => Promise<{ headers: Headers; response: unknown }>;

/** Runs a social endpoint for this request and answers with its body and its cookies (the OAuth state). */
async function answerWith(endpoint: SocialEndpoint, ctx: Ctx, body: Record<string, unknown>) {
  const { headers, response } = await endpoint({ ...ctx, body, asResponse: false, returnHeaders: true } as never);
  for (const cookie of headers.getSetCookie()) {
    for (const [name, attributes] of parseSetCookieHeader(cookie)) {
      ctx.setCookie(name, attributes.value, toCookieOptions(attributes));
    }
  }
  return ctx.json(response as Record<string, unknown>);
}

export function genericOAuthSignIn(): BetterAuthPlugin {
  const socialSignIn = signInSocial() as unknown as SocialEndpoint;
  const socialLink = linkSocialAccount as unknown as SocialEndpoint;
  return {
    id: 'engram-generic-oauth-sign-in',
    endpoints: {
      signInOAuth2: createAuthEndpoint(
        '/sign-in/oauth2',
        {
          method: 'POST',
          body: z.object({ providerId: z.string().min(1), requestSignUp: z.boolean().optional(), ...redirects }),
        },
        async (ctx) => {
          const { providerId, ...rest } = ctx.body;
          return answerWith(socialSignIn, ctx, { provider: providerId, ...rest });
        },
      ),
      oAuth2LinkAccount: createAuthEndpoint(
        '/oauth2/link',
        {
          method: 'POST',
          body: z.object({ providerId: z.string().min(1), ...redirects }),
          use: [sessionMiddleware],
        },
        async (ctx) => {
          const { providerId, ...rest } = ctx.body;
          return answerWith(socialLink, ctx, { provider: providerId, ...rest });
        },
      ),
    },
  };
}
