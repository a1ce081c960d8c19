// The gateway's gRPC clients, one per service it calls, and a signer for the internal tokens.
import { createClient } from '@engram/kit/grpc/client';
import type { InternalTokenSigner } from '@engram/kit/internal-auth';
import { CardsServiceClient } from '@engram/proto/cards/v1/cards';
import { IdentityServiceClient } from '@engram/proto/identity/v1/identity';

export interface Services {
  identity: IdentityServiceClient;
  cards: CardsServiceClient;
  signer: InternalTokenSigner;
}

export function createServices(addresses: { identity: string; cards: string }, signer: InternalTokenSigner): Services {
  return {
    identity: createClient(IdentityServiceClient, addresses.identity),
    cards: createClient(CardsServiceClient, addresses.cards),
    signer,
  };
}

export function closeServices(services: Services): void {
  services.identity.close();
  services.cards.close();
}
