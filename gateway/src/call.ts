// One outgoing call on behalf of the signed-in user: signs the internal token for the called service,
// passes the request's cancellation on, and maps a failure to the tRPC error once. Handlers call through
// `asUser(ctx)`, whose clients are bound to their audience and the user's deadline, so a call names only
// its method: `await asUser(ctx).cards.listCards(request)`.
import { type CallSettings, type UnaryMethod, unary } from '@engram/kit/grpc/client';
import type { Client } from '@grpc/grpc-js';
import { AUDIENCES, type ServiceClients } from './clients.js';
import { type ProtectedContext, toTrpcError } from './trpc.js';

/**
 * The deadline of a call the user waits for, a read or a write: generous enough for a cold first query or
 * transaction on a busy machine (the kit's 2 s turned slow starts into timeouts), short enough that a stuck
 * service still fails fast. Slower work (publishing a deck) passes its own.
 */
export const USER_CALL = { timeoutMs: 3_000 } as const;

/**
 * The services a call's internal token is for: the called one, and those it asks on the user's behalf
 * (ai forwards its token to cards and billing).
 */
export type Audience = string | string[];

export async function callAsUser<Req, Res>(
  ctx: ProtectedContext,
  service: Audience,
  client: Client,
  method: UnaryMethod<Req, Res>,
  request: Req,
  settings: Omit<CallSettings, 'token' | 'signal'> = USER_CALL,
): Promise<Res> {
  try {
    const token = await ctx.services.signer.sign(ctx.session.caller, service);
    return await unary(client, method, request, { ...settings, token, signal: ctx.signal });
  } catch (error) {
    const mapped = toTrpcError(error);
    if (mapped.code !== 'CLIENT_CLOSED_REQUEST') ctx.logger.warn({ err: error, service }, 'service call failed');
    throw mapped;
  }
}

/** What a bound call may change: the deadline (slower work passes its own), never the token or signal. */
export type UserCallSettings = Omit<CallSettings, 'token' | 'signal'>;

/** A generated client's unary methods, each a call as the signed-in user: `(request, settings?) => answer`. */
export type UserCalls<C> = {
  [K in keyof C as C[K] extends UnaryMethod<never, unknown> ? K : never]: C[K] extends UnaryMethod<infer Req, infer Res>
    ? (request: Req, settings?: UserCallSettings) => Promise<Res>
    : never;
};

/** Every client of the gateway, bound to its audience (clients.ts AUDIENCES) and the signed-in user of `ctx`. */
export function asUser(ctx: ProtectedContext): { [K in keyof ServiceClients]: UserCalls<ServiceClients[K]> } {
  const bound = {} as Record<string, unknown>;
  for (const name of Object.keys(AUDIENCES) as (keyof ServiceClients)[]) {
    const client = ctx.services[name] as unknown as Client & Record<string, UnaryMethod<unknown, unknown>>;
    bound[name] = new Proxy(
      {},
      {
        get: (_target, method) => {
          if (typeof method !== 'string' || typeof client[method] !== 'function') return undefined;
          return (request: unknown, settings?: UserCallSettings) =>
            callAsUser(
              ctx,
              AUDIENCES[name],
              client,
              client[method] as UnaryMethod<unknown, unknown>,
              request,
              settings,
            );
        },
      },
    );
  }
  return bound as { [K in keyof ServiceClients]: UserCalls<ServiceClients[K]> };
}
