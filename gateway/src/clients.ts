// The gateway's gRPC clients, one per service it calls, and a signer for the internal tokens.
import { createClient } from '@engram/kit/grpc/client';
import type { InternalTokenSigner } from '@engram/kit/internal-auth';
import { AiServiceClient } from '@engram/proto/ai/v1/ai';
import { BillingServiceClient } from '@engram/proto/billing/v1/billing';
import { CardsServiceClient } from '@engram/proto/cards/v1/cards';
import { MetricsServiceClient } from '@engram/proto/cards/v1/metrics';
import { ReviewServiceClient } from '@engram/proto/cards/v1/review';
import { SettingsServiceClient } from '@engram/proto/cards/v1/settings';
import { IdentityServiceClient } from '@engram/proto/identity/v1/identity';
import { OrganizationsServiceClient } from '@engram/proto/organizations/v1/organizations';

export interface Services {
  identity: IdentityServiceClient;
  cards: CardsServiceClient;
  reviews: ReviewServiceClient;
  metrics: MetricsServiceClient;
  settings: SettingsServiceClient;
  organizations: OrganizationsServiceClient;
  billing: BillingServiceClient;
  ai: AiServiceClient;
  signer: InternalTokenSigner;
}

/** The clients, without the signer. */
export type ServiceClients = Omit<Services, 'signer'>;

/**
 * Whom a call through each client is for: the called service, and those it asks on the user's behalf
 * (ai forwards its token to cards and billing; organizations asks identity and cards). Cards answers four
 * gRPC services from one process, so those four clients share its audience.
 */
export const AUDIENCES: Record<keyof ServiceClients, string | string[]> = {
  identity: 'identity',
  cards: 'cards',
  reviews: 'cards',
  metrics: 'cards',
  settings: 'cards',
  organizations: ['organizations', 'identity', 'cards'],
  billing: 'billing',
  ai: ['ai', 'cards', 'billing'],
};

export function createServices(
  addresses: { identity: string; cards: string; organizations: string; billing: string; ai: string },
  signer: InternalTokenSigner,
): Services {
  return {
    identity: createClient(IdentityServiceClient, addresses.identity),
    cards: createClient(CardsServiceClient, addresses.cards),
    reviews: createClient(ReviewServiceClient, addresses.cards),
    metrics: createClient(MetricsServiceClient, addresses.cards),
    settings: createClient(SettingsServiceClient, addresses.cards),
    organizations: createClient(OrganizationsServiceClient, addresses.organizations),
    billing: createClient(BillingServiceClient, addresses.billing),
    ai: createClient(AiServiceClient, addresses.ai),
    signer,
  };
}

export function closeServices(services: Services): void {
  for (const client of [
    services.identity,
    services.cards,
    services.reviews,
    services.metrics,
    services.settings,
    services.organizations,
    services.billing,
    services.ai,
  ]) {
    client.close();
  }
}
