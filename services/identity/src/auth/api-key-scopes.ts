// An API key's scopes (docs/product.md#calls): read, write and generate, kept as better-auth's permissions of the
// key (`{engram: [...]}`), which only the server may set. A new key gets API_KEY_DEFAULT_SCOPES (the plugin's
// defaultPermissions, auth.ts); its owner changes them with POST /api-key/set-scopes {keyId, scopes}, answered
// for their own keys only (another's is "not found", as better-auth answers for it). The gateway reads them from
// ResolveApiKey and refuses a call its key has no scope for.
import { API_KEY_PERMISSIONS_RESOURCE, API_KEY_SCOPES, apiKeyScopesOf } from '@engram/contracts/auth-features';
import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthEndpoint, sessionMiddleware } from 'better-auth/api';
import { z } from 'zod';

const setScopesBody = z.object({
  keyId: z.string().min(1, 'keyId is required.'),
  scopes: z
    .array(z.enum(API_KEY_SCOPES, `A scope is one of ${API_KEY_SCOPES.join(', ')}.`))
    .min(1, 'A key needs at least one scope.'),
});

export function apiKeyScopes(): BetterAuthPlugin {
  return {
    id: 'engram-api-key-scopes',
    endpoints: {
      setApiKeyScopes: createAuthEndpoint(
        '/api-key/set-scopes',
        { method: 'POST', use: [sessionMiddleware], body: setScopesBody },
        async (ctx) => {
          const { keyId, scopes } = ctx.body;
          const userId = ctx.context.session.user.id;
          const permissions = JSON.stringify({ [API_KEY_PERMISSIONS_RESOURCE]: [...new Set(scopes)] });
          const updated = await ctx.context.adapter.update<{ id: string; permissions: string | null }>({
            model: 'apikey',
            where: [
              { field: 'id', value: keyId },
              { field: 'referenceId', value: userId },
            ],
            update: { permissions, updatedAt: new Date() },
          });
          if (!updated) throw new APIError('NOT_FOUND', { code: 'KEY_NOT_FOUND', message: 'API Key not found' });
          return ctx.json({ id: updated.id, scopes: apiKeyScopesOf(updated.permissions) });
        },
      ),
    },
  };
}
