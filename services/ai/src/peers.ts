// Calls ai makes to cards and billing on the learner's behalf (@engram/kit/grpc/peer): a peer that is down or
// too slow is answered in these words, and the learner is asked to try again.
import { askPeer as askKitPeer } from '@engram/kit/grpc/peer';

/** Runs `call` to `peer` (cards, billing), its being down or slow told in card generation's words. */
export const askPeer = <T>(peer: string, call: () => Promise<T>): Promise<T> =>
  askKitPeer(`Card generation cannot reach ${peer} right now. Please try again in a moment.`, call);
