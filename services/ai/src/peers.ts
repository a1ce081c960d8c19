// Calls ai makes to cards and billing on the learner's behalf (@engram/kit/grpc/peer): a peer that is down or
// too slow is answered in these words, and the learner is asked to try again.
import { askPeer as askKitPeer } from '@engram/kit/grpc/peer';
import { serviceNameOf } from '@engram/kit/grpc/service-name';
import type { ServiceDefinition } from '@grpc/grpc-js';

/** Runs `call` to `peer` (cards' or billing's definition), its being down or slow told in card generation's words. */
export const askPeer = <T>(peer: ServiceDefinition, call: () => Promise<T>): Promise<T> =>
  askKitPeer(`Card generation cannot reach ${serviceNameOf(peer)} right now. Please try again in a moment.`, call);
