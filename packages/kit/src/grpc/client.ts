// Outgoing gRPC calls: every call has a deadline (the caller's, when shorter), carries the trace
// context and the internal token, honours an AbortSignal, and, for the methods the .proto files mark
// IDEMPOTENT or NO_SIDE_EFFECTS (@engram/proto/idempotency), is retried by grpc-js when the peer is
// UNAVAILABLE (service-config retry policy, with reconnection paced to match it). Any other method is
// never retried: after a lost connection its first attempt may have taken effect.

import { RETRYABLE_METHODS } from '@engram/proto/idempotency';
import {
  type CallOptions,
  type Client,
  type ClientReadableStream,
  type ClientUnaryCall,
  credentials,
  Metadata,
  type ServiceError,
  status,
} from '@grpc/grpc-js';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { REASON_METADATA_KEY } from '../errors.js';
import { grpcClientHandled } from '../metrics.js';
import { AUTHORIZATION_KEY, metadataSetter } from './metadata.js';

export const DEFAULT_DEADLINE_MS = 2_000;

// Retry budget: 4 attempts, ~0.1 s, 0.2 s, 0.4 s apart (±20 % jitter), so a peer that is down for good
// still fails fast with UNAVAILABLE (no waitForReady, which would turn that into a wait for the deadline).
const RETRY_INITIAL_BACKOFF_MS = 100;
const RETRY_MAX_BACKOFF_MS = 1_000;

/** `/pkg.Service/Method` → grpc-js's service-config method name. */
function methodName(path: string): { service: string; method: string } {
  const [, service = '', method = ''] = path.split('/');
  return { service, method };
}

/** The retry policy, for the retryable methods only; every other method has none. */
export function retryServiceConfig(retryable: Iterable<string> = RETRYABLE_METHODS): string {
  return JSON.stringify({
    methodConfig: [
      {
        name: [...retryable].map(methodName),
        retryPolicy: {
          maxAttempts: 4,
          initialBackoff: `${RETRY_INITIAL_BACKOFF_MS / 1000}s`,
          maxBackoff: `${RETRY_MAX_BACKOFF_MS / 1000}s`,
          backoffMultiplier: 2,
          retryableStatusCodes: ['UNAVAILABLE'],
        },
      },
    ],
  });
}

type ClientConstructor<C> = new (
  address: string,
  creds: ReturnType<typeof credentials.createInsecure>,
  options?: object,
) => C;

/** A client for `address` (host:port) with the retry policy on for the retryable methods. */
export function createClient<C extends Client>(Ctor: ClientConstructor<C>, address: string): C {
  return new Ctor(address, credentials.createInsecure(), {
    'grpc.service_config': retryServiceConfig(),
    'grpc.enable_retries': 1,
    // A refused connection puts the channel in TRANSIENT_FAILURE, where every attempt fails at once
    // without dialling until the reconnect back-off (1 s by default) ends; retries inside that window
    // are wasted. Reconnecting on the retry policy's schedule lets a later attempt reach a peer that
    // came up meanwhile.
    'grpc.initial_reconnect_backoff_ms': RETRY_INITIAL_BACKOFF_MS,
    'grpc.max_reconnect_backoff_ms': RETRY_MAX_BACKOFF_MS,
    'grpc.keepalive_time_ms': 30_000,
  });
}

/**
 * Connects the clients' channels, waiting at most `timeoutMs` in all, so that a new replica's first calls do not
 * each wait for a connection to be set up (a rolling update sends them all at once). Never fails: a peer that is
 * not up yet is connected to on the first call to it, as without this. Answers how many clients are connected.
 */
export async function connectClients(clients: Client[], timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  const connected = await Promise.all(
    clients.map(
      (client) => new Promise<boolean>((resolve) => client.waitForReady(deadline, (error) => resolve(!error))),
    ),
  );
  return connected.filter(Boolean).length;
}

export interface CallSettings {
  /** The internal token for the called service. */
  token?: string;
  /** Milliseconds from now; defaults to DEFAULT_DEADLINE_MS. */
  timeoutMs?: number;
  /** The caller's own deadline: the call never outlives it. */
  parentDeadline?: Date | undefined;
  signal?: AbortSignal | undefined;
}

/** A grpc-js client's unary method, as ts-proto generates it. */
export type UnaryMethod<Req, Res> = (
  request: Req,
  metadata: Metadata,
  options: Partial<CallOptions>,
  callback: (error: ServiceError | null, response: Res) => void,
) => ClientUnaryCall;

/** A failed outgoing call, with the status code and the domain reason the server sent, if any. */
export class GrpcCallError extends Error {
  readonly code: status;
  readonly reason: string | undefined;
  constructor(error: ServiceError) {
    super(error.details || error.message);
    this.name = 'GrpcCallError';
    this.code = error.code;
    const reason = error.metadata?.get(REASON_METADATA_KEY)[0];
    this.reason = typeof reason === 'string' ? reason : undefined;
  }
}

/** 'package.Service/Method' for spans and metrics: grpc-js client methods are anonymous but carry their path. */
function rpcName(method: { name: string; path?: unknown }): string {
  return typeof method.path === 'string' ? method.path.replace(/^\//, '') : method.name || 'call';
}

/** Calls one unary method: `unary(client, client.createCard, request, settings)`. */
export function unary<Req, Res>(
  client: Client,
  method: UnaryMethod<Req, Res>,
  request: Req,
  settings: CallSettings = {},
): Promise<Res> {
  const name = rpcName(method);
  const tracer = trace.getTracer('engram-grpc-client');
  const started = performance.now();
  const timeout = Date.now() + (settings.timeoutMs ?? DEFAULT_DEADLINE_MS);
  const deadline = settings.parentDeadline ? Math.min(timeout, settings.parentDeadline.getTime()) : timeout;
  return tracer.startActiveSpan(`grpc ${name}`, { kind: SpanKind.CLIENT }, (span) => {
    const metadata = new Metadata();
    if (settings.token) metadata.set(AUTHORIZATION_KEY, `Bearer ${settings.token}`);
    propagation.inject(context.active(), metadata, metadataSetter);
    return new Promise<Res>((resolve, reject) => {
      const call = method.call(client, request, metadata, { deadline }, (error, response) => {
        settings.signal?.removeEventListener('abort', cancel);
        const code = error ? error.code : status.OK;
        grpcClientHandled.observe({ method: name, code: status[code] }, (performance.now() - started) / 1000);
        if (error) span.setStatus({ code: SpanStatusCode.ERROR, message: status[code] });
        span.end();
        if (error) reject(new GrpcCallError(error));
        else resolve(response);
      });
      const cancel = () => call.cancel();
      // An 'abort' listener added to a signal that has already fired never runs.
      if (settings.signal?.aborted) cancel();
      else settings.signal?.addEventListener('abort', cancel, { once: true });
    });
  });
}

/** A grpc-js client's server-streaming method, as ts-proto generates it. */
export type ServerStreamMethod<Req, Res> = (
  request: Req,
  metadata: Metadata,
  options: Partial<CallOptions>,
) => ClientReadableStream<Res>;

/**
 * Calls one server-streaming method and yields its messages as they arrive:
 * `for await (const event of serverStream(client, client.generate, request, settings))`. A failure
 * (status other than OK) is thrown as a GrpcCallError after the messages that came before it; leaving the
 * loop early or aborting `signal` cancels the call.
 */
export async function* serverStream<Req, Res>(
  client: Client,
  method: ServerStreamMethod<Req, Res>,
  request: Req,
  settings: CallSettings = {},
): AsyncGenerator<Res> {
  const name = rpcName(method);
  const started = performance.now();
  const timeout = Date.now() + (settings.timeoutMs ?? DEFAULT_DEADLINE_MS);
  const deadline = settings.parentDeadline ? Math.min(timeout, settings.parentDeadline.getTime()) : timeout;
  const span = trace.getTracer('engram-grpc-client').startSpan(`grpc ${name}`, { kind: SpanKind.CLIENT });
  const metadata = new Metadata();
  if (settings.token) metadata.set(AUTHORIZATION_KEY, `Bearer ${settings.token}`);
  propagation.inject(trace.setSpan(context.active(), span), metadata, metadataSetter);
  const call = method.call(client, request, metadata, { deadline });
  const cancel = () => call.cancel();
  if (settings.signal?.aborted) cancel();
  else settings.signal?.addEventListener('abort', cancel, { once: true });
  let code: status = status.OK;
  try {
    for await (const message of call as AsyncIterable<Res>) yield message;
  } catch (error) {
    const failure = error as ServiceError;
    code = typeof failure.code === 'number' ? failure.code : status.UNKNOWN;
    throw typeof failure.code === 'number' ? new GrpcCallError(failure) : error;
  } finally {
    settings.signal?.removeEventListener('abort', cancel);
    call.cancel();
    grpcClientHandled.observe({ method: name, code: status[code] }, (performance.now() - started) / 1000);
    if (code !== status.OK) span.setStatus({ code: SpanStatusCode.ERROR, message: status[code] });
    span.end();
  }
}
