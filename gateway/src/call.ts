// One outgoing call on behalf of the signed-in user: signs the internal token for the called service,
// passes the request's cancellation on, and maps a failure to the tRPC error once.
import { type CallSettings, type UnaryMethod, unary } from '@engram/kit/grpc/client';
import type { Client } from '@grpc/grpc-js';
import { type ProtectedContext, toTrpcError } from './trpc.js';

/**
 * The deadline of a read the user waits for. Generous enough for a cold first query on a busy machine
 * (a shorter one turned slow starts into timeouts), short enough that a stuck service still fails fast.
 */
export const READ_CALL = { timeoutMs: 3_000 } as const;

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
  settings: Omit<CallSettings, 'token' | 'signal'> = {},
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
