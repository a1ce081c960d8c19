// What the ai service's handlers are given: its database, the clients of the services it asks on the
// user's behalf, the generator (Bedrock or offline), how long a generation may take, and the pool that
// reads uploaded files with its limits and the learners' upload quota.
import type { BillingServiceClient } from '@engram/proto/billing/v1/billing';
import type { CardsServiceClient } from '@engram/proto/cards/v1/cards';
import type { Db } from './db.js';
import type { CardGenerator } from './generators/generator.js';
import type { UploadQuota } from './uploads/quota.js';
import type { ReaderLimits, ReaderPool } from './uploads/reader-pool.js';

export interface AiDeps {
  db: Db;
  cards: CardsServiceClient;
  billing: BillingServiceClient;
  generator: CardGenerator;
  generationTimeoutMs: number;
  uploads: { reader: { pool: ReaderPool; limits: ReaderLimits }; quota: UploadQuota };
}
