// tRPC for the gateway: the request context, the error mapping from gRPC status codes (done once,
// here), and the procedure builders. Routers are thin adapters over gRPC.

import { BANNED_USER_CODE, BANNED_USER_MESSAGE } from '@engram/contracts/auth';
import { API_KEY_SCOPE_MISSING, scopeOfCall } from '@engram/contracts/auth-features';
import { SERVICE_UNAVAILABLE_MESSAGE } from '@engram/contracts/trpc';
import { GrpcCallError } from '@engram/kit/grpc/client';
import type { Logger } from '@engram/kit/logger';
import { status } from '@grpc/grpc-js';
import { initTRPC, TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { ZodError } from 'zod';
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

// Answers whose cause is not the user's doing carry a fixed message: no grpc-js details, no addresses.
const FIXED_MESSAGES: Partial<Record<TRPC_ERROR_CODE_KEY, string>> = {
  INTERNAL_SERVER_ERROR: 'Something went wrong!',
  SERVICE_UNAVAILABLE: SERVICE_UNAVAILABLE_MESSAGE,
  TIMEOUT: 'The service took too long to answer. Please try again.',
  // A streamed body that outgrew TRPC_MAX_BODY_BYTES (a declared one is refused earlier, body-limit.ts).
  PAYLOAD_TOO_LARGE: 'The request body is too large.',
};

/** Maps a failed gRPC call to the tRPC error the web app sees; anything else is an internal error. */
export function toTrpcError(error: unknown): TRPCError {
  if (error instanceof TRPCError) return error;
  if (error instanceof GrpcCallError) {
    const code = codeOfStatus[error.code] ?? 'INTERNAL_SERVER_ERROR';
    return new TRPCError({ code, message: FIXED_MESSAGES[code] ?? error.message, cause: error });
  }
  return new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: error as Error });
}

/** The field problems of invalid input, each with the path of the field it concerns. */
export interface InputIssue {
  path: (string | number)[];
  message: string;
}

function inputIssues(cause: unknown): InputIssue[] | undefined {
  if (!(cause instanceof ZodError)) return undefined;
  return cause.issues.map((issue) => ({
    path: issue.path.filter((key) => typeof key !== 'symbol'),
    message: issue.message,
  }));
}

/** A refusal worded by the gateway itself, with the domain code the web app reacts to (`data.reason`). */
export class GatewayRefusal extends Error {
  readonly reason: string;
  constructor(reason: string, message: string) {
    super(message);
    this.name = 'GatewayRefusal';
    this.reason = reason;
  }
}

const t = initTRPC.context<Context>().create({
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    const reason = cause instanceof GrpcCallError || cause instanceof GatewayRefusal ? cause.reason : undefined;
    const issues = inputIssues(cause);
    // Internal details never reach the browser: no stack, no dump of validation issues, no grpc-js text. A
    // refusal the gateway words itself keeps its message, whatever its code.
    const { stack: _stack, ...data } = shape.data;
    const fixed = cause instanceof GatewayRefusal ? undefined : FIXED_MESSAGES[error.code];
    const message = fixed ?? issues?.[0]?.message ?? shape.message;
    return { ...shape, message, data: { ...data, ...(reason && { reason }), ...(issues && { issues }) } };
  },
});

export const router = t.router;
export const publicProcedure = t.procedure;

/** The refusal of a call an API key has no scope for. */
export const scopeMissingMessage = (scope: string) =>
  `This API key cannot ${SCOPE_WORDS[scope as keyof typeof SCOPE_WORDS] ?? scope}: give it the ${scope} scope on the API keys page.`;
const SCOPE_WORDS = { read: 'read', write: 'change anything', generate: 'generate cards' } as const;

/**
 * A procedure for signed-in users who are not banned. A call with an API key also needs the key's scope for it:
 * read for a query, write for a change, generate for card generation (scopeOfCall).
 */
export const protectedProcedure = t.procedure.use(({ ctx, next, path, type }) => {
  const session = ctx.session;
  if (!session) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Please sign in.' });
  if (session.user.banned) {
    const cause = new GatewayRefusal(BANNED_USER_CODE, BANNED_USER_MESSAGE);
    throw new TRPCError({ code: 'FORBIDDEN', message: BANNED_USER_MESSAGE, cause });
  }
  const needed = scopeOfCall(path, type);
  if (session.scopes && !session.scopes.includes(needed)) {
    const message = scopeMissingMessage(needed);
    throw new TRPCError({ code: 'FORBIDDEN', message, cause: new GatewayRefusal(API_KEY_SCOPE_MISSING, message) });
  }
  return next({ ctx: { ...ctx, session } });
});

export type ProtectedContext = Context & { session: SessionInfo };

/** What a handler of a signed-in user's procedure receives: the context and the parsed input (none by default). */
export type HandlerArgs<I = undefined> = { ctx: ProtectedContext; input: I };

/** What a handler of a public procedure receives: there may be no session. */
export type PublicHandlerArgs<I = undefined> = { ctx: Context; input: I };
