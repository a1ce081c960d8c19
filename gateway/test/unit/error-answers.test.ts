// What the browser reads when a procedure fails for a reason that is not the user's: a fixed message,
// never the text of the error (which may name hosts, ports or library internals).
import { GrpcCallError } from '@engram/kit/grpc/client';
import { Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { describe, expect, it } from 'vitest';
import { publicProcedure, router, toTrpcError } from '../../src/trpc.js';

/** A failed call as grpc-js reports it. */
const grpcFailure = (code: status, details: string) =>
  new GrpcCallError(
    Object.assign(new Error(`${code} ${details}`), { code, details, metadata: new Metadata() }) as ServiceError,
  );

const failing = router({
  plain: publicProcedure.mutation(() => {
    throw new Error('connect ECONNREFUSED 10.1.2.3:5432');
  }),
  grpcInternal: publicProcedure.mutation(() => {
    throw toTrpcError(grpcFailure(status.INTERNAL, 'Received RST_STREAM with code 2 from 10.1.2.3:50053'));
  }),
  grpcTimeout: publicProcedure.mutation(() => {
    throw toTrpcError(grpcFailure(status.DEADLINE_EXCEEDED, 'Deadline exceeded after 1.002s,LB pick: 0.001s'));
  }),
});

async function call(path: string) {
  const response = await fetchRequestHandler({
    endpoint: '/api/trpc',
    router: failing,
    req: new Request(`http://localhost/api/trpc/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    }),
    createContext: () => ({
      services: undefined as never,
      logger: undefined as never,
      session: null,
      signal: undefined,
    }),
  });
  return { status: response.status, text: await response.text() };
}

describe('answers to failures that are not the user’s doing', () => {
  it('masks an unexpected error with a fixed message', async () => {
    const { status: code, text } = await call('plain');
    expect(code).toBe(500);
    expect(JSON.parse(text).error.message).toBe('Something went wrong!');
    expect(text).not.toMatch(/ECONNREFUSED|10\.1\.2\.3/);
  });

  it('masks a service’s internal error and a timeout without grpc-js details', async () => {
    const internal = await call('grpcInternal');
    expect(JSON.parse(internal.text).error.message).toBe('Something went wrong!');
    const timeout = await call('grpcTimeout');
    expect(timeout.status).toBe(408);
    expect(JSON.parse(timeout.text).error.message).toBe('The service took too long to answer. Please try again.');
    for (const { text } of [internal, timeout]) expect(text).not.toMatch(/RST_STREAM|10\.1\.2\.3|LB pick/);
  });
});
