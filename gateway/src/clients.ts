// The gateway's gRPC clients, one per service it calls, and a signer for the internal tokens.
import { createClient } from '@engram/kit/grpc/client';
import { serviceNameOf } from '@engram/kit/grpc/service-name';
import type { InternalTokenSigner } from '@engram/kit/internal-auth';
import { AiServiceClient } from '@engram/proto/ai/v1/ai';
import { BillingServiceClient } from '@engram/proto/billing/v1/billing';
import { AnkiConnectServiceClient } from '@engram/proto/cards/v1/anki_connect';
import { BrowseServiceClient } from '@engram/proto/cards/v1/browse';
import { CardsServiceClient } from '@engram/proto/cards/v1/cards';
import { ExportServiceClient } from '@engram/proto/cards/v1/exports';
import { ImportServiceClient } from '@engram/proto/cards/v1/imports';
import { MediaServiceClient } from '@engram/proto/cards/v1/media';
import { MetricsServiceClient } from '@engram/proto/cards/v1/metrics';
import { ReviewServiceClient } from '@engram/proto/cards/v1/review';
import { SettingsServiceClient } from '@engram/proto/cards/v1/settings';
import { IdentityServiceClient } from '@engram/proto/identity/v1/identity';
import { OrganizationsServiceClient } from '@engram/proto/organizations/v1/organizations';
import type { Client, ServiceDefinition } from '@grpc/grpc-js';

export interface Services {
  identity: IdentityServiceClient;
  cards: CardsServiceClient;
  browse: BrowseServiceClient;
  reviews: ReviewServiceClient;
  metrics: MetricsServiceClient;
  settings: SettingsServiceClient;
  media: MediaServiceClient;
  imports: ImportServiceClient;
  exports: ExportServiceClient;
  ankiConnect: AnkiConnectServiceClient;
  organizations: OrganizationsServiceClient;
  billing: BillingServiceClient;
  ai: AiServiceClient;
  signer: InternalTokenSigner;
}

/** The clients, without the signer. */
export type ServiceClients = Omit<Services, 'signer'>;

type Generated = { service: ServiceDefinition };

/** The called service's name, and those it asks on the user's behalf, each derived from its definition. */
function audience(called: Generated): string;
function audience(called: Generated, ...askedFor: [Generated, ...Generated[]]): string[];
function audience(called: Generated, ...askedFor: Generated[]): string | string[] {
  const names = [called, ...askedFor].map((client) => serviceNameOf(client.service));
  return askedFor.length === 0 ? (names[0] as string) : names;
}

/**
 * Whom a call through each client is for: the called service, and those it asks on the user's behalf
 * (ai forwards its token to cards and billing; organizations asks identity and cards; cards asks billing for
 * a learner's storage quota when they add a file, start an import or store a file through AnkiConnect). Cards
 * answers nine gRPC services from
 * one process, all in its package, so those clients share its audience.
 */
export const AUDIENCES = {
  identity: audience(IdentityServiceClient),
  cards: audience(CardsServiceClient),
  browse: audience(BrowseServiceClient),
  reviews: audience(ReviewServiceClient),
  metrics: audience(MetricsServiceClient),
  settings: audience(SettingsServiceClient),
  media: audience(MediaServiceClient, BillingServiceClient),
  imports: audience(ImportServiceClient, BillingServiceClient),
  exports: audience(ExportServiceClient),
  ankiConnect: audience(AnkiConnectServiceClient, BillingServiceClient),
  organizations: audience(OrganizationsServiceClient, IdentityServiceClient, CardsServiceClient),
  billing: audience(BillingServiceClient),
  ai: audience(AiServiceClient, CardsServiceClient, BillingServiceClient),
} satisfies Record<keyof ServiceClients, string | string[]>;

export function createServices(
  addresses: { identity: string; cards: string; organizations: string; billing: string; ai: string },
  signer: InternalTokenSigner,
): Services {
  return {
    identity: createClient(IdentityServiceClient, addresses.identity),
    cards: createClient(CardsServiceClient, addresses.cards),
    browse: createClient(BrowseServiceClient, addresses.cards),
    reviews: createClient(ReviewServiceClient, addresses.cards),
    metrics: createClient(MetricsServiceClient, addresses.cards),
    settings: createClient(SettingsServiceClient, addresses.cards),
    media: createClient(MediaServiceClient, addresses.cards),
    imports: createClient(ImportServiceClient, addresses.cards),
    exports: createClient(ExportServiceClient, addresses.cards),
    ankiConnect: createClient(AnkiConnectServiceClient, addresses.cards),
    organizations: createClient(OrganizationsServiceClient, addresses.organizations),
    billing: createClient(BillingServiceClient, addresses.billing),
    ai: createClient(AiServiceClient, addresses.ai),
    signer,
  };
}

/** Every client of the gateway, one per called gRPC service. */
export function clientsOf(services: Services): Client[] {
  return [
    services.identity,
    services.cards,
    services.browse,
    services.reviews,
    services.metrics,
    services.settings,
    services.media,
    services.imports,
    services.exports,
    services.ankiConnect,
    services.organizations,
    services.billing,
    services.ai,
  ];
}

export function closeServices(services: Services): void {
  for (const client of clientsOf(services)) client.close();
}
