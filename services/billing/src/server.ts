// Registers the billing service's gRPC handlers. Every method but Describe acts for the user of the
// call's internal token.
import { implement, type ServerOptions } from '@engram/kit/grpc/server';
import { BillingServiceService } from '@engram/proto/billing/v1/billing';
import type { BillingDeps } from './deps.js';
import { createCheckout } from './handlers/create-checkout.js';
import { createPortal } from './handlers/create-portal.js';
import { describe } from './handlers/describe.js';
import { exportUserData } from './handlers/export-user-data.js';
import { getCheckout } from './handlers/get-checkout.js';
import { getCustomer } from './handlers/get-customer.js';
import { getEntitlements } from './handlers/get-entitlements.js';
import { listPlans } from './handlers/list-plans.js';

export type { BillingDeps };

export function billingService(deps: BillingDeps, options: ServerOptions & { version: string }) {
  return {
    name: 'engram.billing.v1.BillingService',
    definition: BillingServiceService,
    implementation: implement(
      BillingServiceService,
      {
        describe: { access: 'service', handle: describe(options.version) },
        // The plans are public: the gateway asks for visitors with a token of its own.
        listPlans: { access: 'service', handle: listPlans(deps) },
        getCustomer: { handle: getCustomer(deps) },
        createCheckout: { handle: createCheckout(deps) },
        getCheckout: { handle: getCheckout(deps) },
        createPortal: { handle: createPortal(deps) },
        getEntitlements: { handle: getEntitlements(deps) },
        exportUserData: { handle: exportUserData(deps) },
      },
      options,
    ),
  };
}
