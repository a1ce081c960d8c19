// GET /api/auth/public-config: what this installation offers (the captcha configuration, the
// configured social and generic providers, which account features are on), so the web app renders
// only the buttons and screens that work. Public by design: it holds no secret.
import type { PublicAuthConfig } from '@engram/contracts/auth-features';
import type { BetterAuthPlugin } from 'better-auth';
import { createAuthEndpoint } from 'better-auth/api';

export function publicConfig(config: PublicAuthConfig): BetterAuthPlugin {
  return {
    id: 'engram-public-config',
    endpoints: {
      getPublicConfig: createAuthEndpoint('/public-config', { method: 'GET' }, async (ctx) => {
        ctx.setHeader('cache-control', 'public, max-age=60');
        return ctx.json(config);
      }),
    },
  };
}
