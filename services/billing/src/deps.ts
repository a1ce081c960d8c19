// What the billing service's handlers are built from (server.ts hands each one these).
import type Stripe from 'stripe';
import type { Catalogue } from './catalogue.js';
import type { Config } from './config.js';
import type { Db } from './db.js';

export interface BillingDeps {
  db: Db;
  stripe: Stripe;
  config: Config;
  catalogue: Catalogue;
}
