// Assertions about gRPC calls that must fail.
import { GrpcCallError } from '@engram/kit/grpc/client';
import { expect } from 'vitest';

/** Awaits a call that must fail and returns its GrpcCallError (code, message, reason). */
export async function grpcFailure(call: Promise<unknown>): Promise<GrpcCallError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'the call should have failed').toBeInstanceOf(GrpcCallError);
  return error as GrpcCallError;
}
