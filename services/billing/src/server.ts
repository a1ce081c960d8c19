// Registers the billing service's gRPC handlers. Its features arrive with their own issues; until then
// it serves Describe and the standard health service.
import { implement, type ServerOptions } from '@engram/kit/grpc/server';
import { BillingServiceService } from '@engram/proto/billing/v1/billing';
import { describe } from './handlers/Describe.js';

export function billingService(options: ServerOptions & { version: string }) {
  return {
    name: 'engram.billing.v1.BillingService',
    definition: BillingServiceService,
    implementation: implement(
      BillingServiceService,
      { describe: { access: 'service', handle: describe(options.version) } },
      options,
    ),
  };
}
