// tRPC for the gateway: the request context, the error mapping from gRPC status codes (done once,
// here), and the procedure builders. Routers are thin adapters over gRPC.

import { GrpcCallError } from '@engram/kit/grpc/client';
import type { Logger } from '@engram/kit/logger';
import { status } from '@grpc/grpc-js';
import { initTRPC, TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import type { Services } from './clients.js';
import type { SessionInfo } from './session.js';

export interface Context {
  services: Services;
  logger: Logger;
  session: SessionInfo | null;
  signal: AbortSignal | undefined;
}

const codeOfStatus: Partial<Record<status, TRPC_ERROR_CODE_KEY>> = {
  [status.INVALID_ARGUMENT]: 'BAD_REQUEST',
  [status.NOT_FOUND]: 'NOT_FOUND',
  [status.ALREADY_EXISTS]: 'CONFLICT',
  [status.FAILED_PRECONDITION]: 'PRECONDITION_FAILED',
  [status.PERMISSION_DENIED]: 'FORBIDDEN',
  [status.UNAUTHENTICATED]: 'UNAUTHORIZED',
  [status.RESOURCE_EXHAUSTED]: 'TOO_MANY_REQUESTS',
  [status.DEADLINE_EXCEEDED]: 'TIMEOUT',
  [status.UNAVAILABLE]: 'SERVICE_UNAVAILABLE',
  // The browser went away and the call was cancelled for it; nobody is waiting for an answer.
  [status.CANCELLED]: 'CLIENT_CLOSED_REQUEST',
};

/** Maps a failed gRPC call to the tRPC error the web app sees; anything else is an internal error. */
export function toTrpcError(error: unknown): TRPCError {
  if (error instanceof TRPCError) return error;
  if (error instanceof GrpcCallError) {
    const code = codeOfStatus[error.code] ?? 'INTERNAL_SERVER_ERROR';
    const message = code === 'INTERNAL_SERVER_ERROR' ? 'Something went wrong!' : error.message;
    return new TRPCError({ code, message, cause: error });
  }
  return new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'Something went wrong!', cause: error as Error });
}

const t = initTRPC.context<Context>().create({
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    const reason = cause instanceof GrpcCallError ? cause.reason : undefined;
    // Internal details never reach the browser.
    const { stack: _stack, ...data } = shape.data;
    return { ...shape, data: { ...data, ...(reason && { reason }) } };
  },
});

export const router = t.router;
export const publicProcedure = t.procedure;

/** A procedure for signed-in users who are not banned. */
export const protectedProcedure = t.procedure.use(({ ctx, next }) => {
  const session = ctx.session;
  if (!session) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Please sign in.' });
  if (session.user.banned) {
    throw new TRPCError({ code: 'FORBIDDEN', message: 'You have been banned from this application' });
  }
  return next({ ctx: { ...ctx, session } });
});

export type ProtectedContext = Context & { session: SessionInfo };
