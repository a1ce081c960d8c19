// ResolveApiKey: who an API key (header x-api-key) belongs to, for the gateway, which then acts as that
// user. Every call is a use: better-auth's API-key plugin checks the key (enabled, not expired, uses
// remaining, refilled when due, within its rate limit) and counts it atomically in the key's row.
// Refusals keep the plugin's codes as the reason, so the web app and API clients see the catalogue's errors.
// The answer names the key's scopes (auth/api-key-scopes.ts), which the gateway enforces.
import { apiKeyScopesOf } from '@engram/contracts/auth-features';
import { ResourceExhausted, Unauthenticated } from '@engram/kit/errors';
import type { CallContext } from '@engram/kit/grpc/server';
import type { Caller } from '@engram/kit/internal-auth';
import type { ResolveApiKeyRequest, ResolveApiKeyResponse } from '@engram/proto/identity/v1/identity';
import type { Auth } from '../auth.js';

const EXHAUSTED = new Set(['USAGE_EXCEEDED', 'RATE_LIMITED']);

export function resolveApiKey(auth: Auth) {
  return async (request: ResolveApiKeyRequest, ctx: CallContext<Caller>): Promise<ResolveApiKeyResponse> => {
    if (!request.key) throw new Unauthenticated('Invalid API key.', 'INVALID_API_KEY');
    const result = await auth.api.verifyApiKey({ body: { key: request.key } });
    if (!result.valid || !result.key) {
      const code = String(result.error?.code ?? 'INVALID_API_KEY');
      const message = String(result.error?.message ?? 'Invalid API key.');
      ctx.logger.info({ reason: code }, 'API key refused');
      throw EXHAUSTED.has(code) ? new ResourceExhausted(message, code) : new Unauthenticated(message, code);
    }
    const { internalAdapter } = await auth.$context;
    const user = await internalAdapter.findUserById(result.key.referenceId);
    if (!user) throw new Unauthenticated('Invalid API key.', 'INVALID_API_KEY');
    const { role, banned } = user as { role?: string | null; banned?: boolean | null };
    return {
      keyId: result.key.id,
      scopes: apiKeyScopesOf(result.key.permissions),
      user: {
        id: user.id,
        email: user.email,
        name: user.name,
        role: role ?? 'user',
        banned: Boolean(banned),
        emailVerified: user.emailVerified,
      },
    };
  };
}
