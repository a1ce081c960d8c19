// One outgoing call on behalf of the signed-in user: signs the internal token for the called service,
// passes the request's cancellation on, and maps a failure to the tRPC error once.
import { type CallSettings, type UnaryMethod, unary } from '@engram/kit/grpc/client';
import type { Client } from '@grpc/grpc-js';
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
