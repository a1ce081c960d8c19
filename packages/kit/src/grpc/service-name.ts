// The Engram name of a gRPC service, derived from its generated definition rather than typed by hand: the
// package segment after `engram.` of the methods' paths (`/engram.cards.v1.CardsService/ListCards` is
// `cards`). The same name is a service's runtime name, the audience its internal tokens are verified for,
// and what a caller signs a token for, so a client cannot be addressed to the wrong service.
import type { ServiceDefinition } from '@grpc/grpc-js';

const ENGRAM_PATH = /^\/engram\.([a-z][a-z0-9_]*)\.[^/]+\/[^/]+$/;

/**
 * `cards` for CardsServiceService, ReviewServiceService (one package, one process) or a client class's
 * `.service`. Throws for a definition without methods or outside the `engram.` packages.
 */
export function serviceNameOf(definition: ServiceDefinition): string {
  const paths = Object.values(definition).map((method) => method.path);
  const names = new Set(paths.map((path) => ENGRAM_PATH.exec(path)?.[1]));
  const [name] = names;
  if (names.size !== 1 || !name) {
    throw new Error(`Not one Engram service: ${paths.join(', ') || 'a definition without methods'}`);
  }
  return name;
}
