// A call a service makes to another on its caller's behalf: a peer that is down or too slow becomes the
// typed Unavailable with the caller's words (they are asked to try again), not an internal error; the
// peer's own refusals (not found, permission denied, invalid) and the caller's cancellation pass on as
// they are.
import { status } from '@grpc/grpc-js';
import { Unavailable } from '../errors.js';
import { GrpcCallError } from './client.js';

/** What a peer answers when it is down or slow. */
const PEER_UNAVAILABLE = new Set([status.UNAVAILABLE, status.DEADLINE_EXCEEDED]);

/** Runs `call`; a peer that is down or too slow is answered as Unavailable(`unavailable`). */
export async function askPeer<T>(unavailable: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof GrpcCallError && PEER_UNAVAILABLE.has(error.code)) throw new Unavailable(unavailable);
    throw error;
  }
}
