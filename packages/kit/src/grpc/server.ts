// The gRPC server of a service: one wrapper around every handler (the single "interceptor") that
// restores the trace context, verifies the internal token, propagates cancellation, maps typed domain
// errors to status codes and logs/measures the call; plus the standard health service and a graceful
// shutdown (NOT_SERVING, drain, close).
import {
  type handleServerStreamingCall,
  type handleUnaryCall,
  Metadata,
  Server,
  ServerCredentials,
  type ServerUnaryCall,
  type ServerWritableStream,
  type ServiceDefinition,
  type ServiceError,
  status,
} from '@grpc/grpc-js';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { HealthImplementation } from 'grpc-health-check';
import { databaseUnreachable } from '../db.js';
import { DomainError, REASON_METADATA_KEY, Unauthenticated } from '../errors.js';
import type { Caller, InternalTokenVerifier, UserCaller } from '../internal-auth.js';
import type { Logger } from '../logger.js';
import { grpcServerHandled } from '../metrics.js';
import { bearerToken, metadataGetter } from './metadata.js';

export interface CallContext<C extends Caller = UserCaller> {
  caller: C;
  logger: Logger;
  /** Aborted when the client cancels or its deadline passes. */
  signal: AbortSignal;
  /** The client's deadline, to pass on to calls this handler makes. */
  deadline: Date | undefined;
  /**
   * The internal token the call came with: forwarded on the user's behalf to another service its
   * audience names as well (the gateway signs one token for several audiences where a service must).
   */
  token: string;
}

type RequestOf<M> = M extends { requestDeserialize: (bytes: Buffer) => infer Req } ? Req : never;
type ResponseOf<M> = M extends { responseSerialize: (value: infer Res) => Buffer } ? Res : never;
/** A unary method answers once; a server-streaming one yields its messages (an async generator). */
type AnswerOf<M> = M extends { responseStream: true } ? AsyncIterable<ResponseOf<M>> : Promise<ResponseOf<M>>;

/** Who may call a method: a signed-in user's token (the default) or any valid token, including a service's. */
export type Access = 'user' | 'service';

export type Handler<M> =
  | { access?: 'user'; handle: (request: RequestOf<M>, ctx: CallContext<UserCaller>) => AnswerOf<M> }
  | { access: 'service'; handle: (request: RequestOf<M>, ctx: CallContext<Caller>) => AnswerOf<M> };

export type Handlers<S extends ServiceDefinition> = { [K in keyof S]: Handler<S[K]> };

export interface ServerOptions {
  service: string;
  logger: Logger;
  verifier: InternalTokenVerifier;
}

function serviceError(code: status, message: string, reason?: string): Partial<ServiceError> {
  const metadata = new Metadata();
  if (reason) metadata.set(REASON_METADATA_KEY, reason);
  return { code, details: message, message, metadata };
}

async function authenticate(
  verifier: InternalTokenVerifier,
  metadata: Metadata,
  access: Access,
): Promise<{ caller: Caller; token: string }> {
  const token = bearerToken(metadata);
  if (!token) throw new Unauthenticated('missing internal token');
  let caller: Caller;
  try {
    caller = await verifier.verify(token);
  } catch {
    throw new Unauthenticated('invalid internal token');
  }
  if (access === 'user' && caller.kind !== 'user') throw new Unauthenticated('a user token is required');
  return { caller, token };
}

type AnyCall<Req, Res> = ServerUnaryCall<Req, Res> | ServerWritableStream<Req, Res>;

/**
 * Runs one call of either kind: restores the trace, authenticates, builds the context, lets `respond`
 * answer (once, or by writing messages), and maps a failure to a status. `fail` ends the call with it.
 */
function run<Req, Res>(
  options: ServerOptions,
  method: string,
  access: Access,
  call: AnyCall<Req, Res>,
  respond: (ctx: CallContext<Caller>) => Promise<void>,
  fail: (error: Partial<ServiceError>) => void,
): void {
  const tracer = trace.getTracer(options.service);
  const started = performance.now();
  const parent = propagation.extract(context.active(), call.metadata, metadataGetter);
  const controller = new AbortController();
  // grpc-js reports 'cancelled' when the call's stream closes, after an answer too: only a call still
  // running is aborted (the listener goes once it has answered).
  const cancelled = () => controller.abort(new Error('call cancelled by the client'));
  call.once('cancelled', cancelled);
  context.with(parent, () =>
    tracer.startActiveSpan(`${options.service}/${method}`, { kind: SpanKind.SERVER }, async (span) => {
      const logger = options.logger.child({ rpc: method });
      let code: status = status.OK;
      try {
        const { caller, token } = await authenticate(options.verifier, call.metadata, access);
        const deadline = call.getDeadline();
        await respond({
          caller,
          token,
          logger,
          signal: controller.signal,
          deadline: deadline instanceof Date ? deadline : Number.isFinite(deadline) ? new Date(deadline) : undefined,
        });
      } catch (error) {
        if (error instanceof DomainError) {
          code = error.code;
          logger.info({ code: status[code], reason: error.reason, err: error.message }, 'call refused');
          fail(serviceError(code, error.message, error.reason));
        } else if (controller.signal.aborted) {
          code = status.CANCELLED;
          logger.info({ err: error }, 'call cancelled');
        } else if (databaseUnreachable(error)) {
          // A restart or a failover of PostgreSQL: the caller may try again (the gateway answers 503).
          code = status.UNAVAILABLE;
          logger.warn({ err: error }, 'call failed: the database is unreachable');
          fail(serviceError(code, 'the database is unavailable'));
        } else {
          code = status.INTERNAL;
          span.recordException(error as Error);
          logger.error({ err: error }, 'call failed');
          fail(serviceError(code, 'internal error'));
        }
      } finally {
        call.off('cancelled', cancelled);
        if (code !== status.OK) span.setStatus({ code: SpanStatusCode.ERROR, message: status[code] });
        span.setAttribute('rpc.grpc.status_code', code);
        span.end();
        const seconds = (performance.now() - started) / 1000;
        grpcServerHandled.observe({ service: options.service, method, code: status[code] }, seconds);
        logger.debug({ code: status[code], ms: Math.round(seconds * 1000) }, 'call handled');
      }
    }),
  );
}

function wrap<Req, Res>(
  options: ServerOptions,
  method: string,
  access: Access,
  handle: (request: Req, ctx: CallContext<Caller>) => Promise<Res>,
): handleUnaryCall<Req, Res> {
  return (call, callback) =>
    run(
      options,
      method,
      access,
      call,
      async (ctx) => callback(null, await handle(call.request, ctx)),
      (error) => callback(error),
    );
}

/** Writes each message the handler yields, honouring back-pressure; the end of the generator ends the call. */
function wrapStream<Req, Res>(
  options: ServerOptions,
  method: string,
  access: Access,
  handle: (request: Req, ctx: CallContext<Caller>) => AsyncIterable<Res>,
): handleServerStreamingCall<Req, Res> {
  return (call) =>
    run(
      options,
      method,
      access,
      call,
      async (ctx) => {
        for await (const message of handle(call.request, ctx)) {
          if (call.cancelled) return;
          if (!call.write(message)) await new Promise((resolve) => call.once('drain', resolve));
        }
        call.end();
      },
      // grpc-js ends a server stream with the status of an 'error' event (its metadata carries the reason).
      (error) => call.emit('error', error),
    );
}

/** Turns typed handlers into a grpc-js service implementation, each wrapped by `wrap`. */
export function implement<S extends ServiceDefinition>(definition: S, handlers: Handlers<S>, options: ServerOptions) {
  const implementation: Record<
    string,
    handleUnaryCall<unknown, unknown> | handleServerStreamingCall<unknown, unknown>
  > = {};
  for (const key of Object.keys(definition) as (keyof S & string)[]) {
    const handler = handlers[key];
    const access = handler.access ?? 'user';
    implementation[key] = definition[key]?.responseStream
      ? wrapStream(options, key, access, handler.handle as never)
      : wrap(options, key, access, handler.handle as never);
  }
  return implementation;
}

export interface RunningGrpcServer {
  port: number;
  /** Marks every service NOT_SERVING, waits `drainMs` for load balancers to notice, then closes. */
  shutdown(drainMs?: number): Promise<void>;
}

export async function startGrpcServer(options: {
  port: number;
  host?: string;
  services: { name: string; definition: ServiceDefinition; implementation: object }[];
  logger: Logger;
}): Promise<RunningGrpcServer> {
  const server = new Server({
    'grpc.max_receive_message_length': 4 * 1024 * 1024,
    // Callers hold one connection per Service IP; ending connections after a while makes them reconnect,
    // so new replicas behind a Kubernetes Service get their share of the calls.
    'grpc.max_connection_age_ms': 60_000,
    'grpc.max_connection_age_grace_ms': 10_000,
  });
  const statuses = Object.fromEntries(options.services.map((s) => [s.name, 'NOT_SERVING' as const]));
  const health = new HealthImplementation({ '': 'NOT_SERVING', ...statuses });
  health.addToServer(server);
  for (const service of options.services) server.addService(service.definition, service.implementation as never);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(
      `${options.host ?? '0.0.0.0'}:${options.port}`,
      ServerCredentials.createInsecure(),
      (err, bound) => (err ? reject(err) : resolve(bound)),
    ),
  );
  for (const name of ['', ...Object.keys(statuses)]) health.setStatus(name, 'SERVING');
  options.logger.info({ port }, 'gRPC server serving');
  return {
    port,
    async shutdown(drainMs = 0) {
      for (const name of ['', ...Object.keys(statuses)]) health.setStatus(name, 'NOT_SERVING');
      if (drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, 10_000);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      });
    },
  };
}
