// ListPlans: the catalogue's prices and what each plan allows in a period.
import type { ListPlansResponse } from '@engram/proto/billing/v1/billing';
import type { BillingDeps } from '../deps.js';

export function listPlans({ catalogue, config }: BillingDeps) {
  const limits = Object.entries(config.generatedCards).map(([plan, generatedCardsPerPeriod]) => ({
    plan,
    generatedCardsPerPeriod,
  }));
  return async (): Promise<ListPlansResponse> => ({
    prices: await catalogue.prices(),
    standIn: config.standIn,
    limits,
  });
}
