// Calls organizations makes to identity and cards on the caller's behalf: a peer that is down or too slow
// becomes the typed Unavailable (the user is asked to try again), not an internal error; its own refusals
// pass on.
import { Unavailable } from '@engram/kit/errors';
import { GrpcCallError } from '@engram/kit/grpc/client';
import { status } from '@grpc/grpc-js';

const PASSING = new Set([status.UNAVAILABLE, status.DEADLINE_EXCEEDED]);

export async function askPeer<T>(unavailable: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof GrpcCallError && PASSING.has(error.code)) throw new Unavailable(unavailable);
    throw error;
  }
}

/** Whether `id` can be a row id here (a UUID): anything else is simply not found, without a query. */
export const isId = (id: string) => /^[0-9a-f-]{36}$/i.test(id);
