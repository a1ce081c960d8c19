// Registers the identity service's gRPC handlers.
import { implement, type ServerOptions } from '@engram/kit/grpc/server';
import { IdentityServiceService } from '@engram/proto/identity/v1/identity';
import type { Auth } from './auth.js';
import type { Db } from './db.js';
import { checkPermission } from './handlers/check-permission.js';
import { completeOnboarding } from './handlers/complete-onboarding.js';
import { exportUserData } from './handlers/export-user-data.js';
import { getMembership } from './handlers/get-membership.js';
import { getSession } from './handlers/get-session.js';
import { resolveApiKey } from './handlers/resolve-api-key.js';

export function identityService(auth: Auth, db: Db, options: ServerOptions) {
  return {
    name: 'engram.identity.v1.IdentityService',
    definition: IdentityServiceService,
    // Sessions and API keys are resolved for the gateway itself, before any user is known: a service token suffices.
    implementation: implement(
      IdentityServiceService,
      {
        getSession: { access: 'service', handle: getSession(auth) },
        resolveApiKey: { access: 'service', handle: resolveApiKey(auth) },
        completeOnboarding: { handle: completeOnboarding(auth) },
        getMembership: { handle: getMembership(db) },
        checkPermission: { handle: checkPermission(db) },
        exportUserData: { handle: exportUserData(db) },
      },
      options,
    ),
  };
}
