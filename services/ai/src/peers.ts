// Calls ai makes to cards and billing on the user's behalf: a peer that is down or too slow becomes the
// typed Unavailable (the learner is asked to try again), not an internal error; its own refusals pass on.
import { Unavailable } from '@engram/kit/errors';
import { GrpcCallError } from '@engram/kit/grpc/client';
import { status } from '@grpc/grpc-js';

/** What a peer answers when it is down or slow (a learner's own cancellation is not one). */
const PASSING = new Set([status.UNAVAILABLE, status.DEADLINE_EXCEEDED]);

export async function askPeer<T>(peer: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof GrpcCallError && PASSING.has(error.code)) {
      throw new Unavailable(`Card generation cannot reach ${peer} right now. Please try again in a moment.`);
    }
    throw error;
  }
}
