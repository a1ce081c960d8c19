// What the organizations service's handlers are given: its database and the clients of the services it
// asks on the caller's behalf (identity for membership, cards for a publisher's cards).
import type { CardsServiceClient } from '@engram/proto/cards/v1/cards';
import type { IdentityServiceClient } from '@engram/proto/identity/v1/identity';
import type { Db } from './db.js';

export interface OrganizationsDeps {
  db: Db;
  identity: IdentityServiceClient;
  cards: CardsServiceClient;
}
