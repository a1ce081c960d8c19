// Registers the identity service's gRPC handlers.
import { implement, type ServerOptions } from '@engram/kit/grpc/server';
import { IdentityServiceService } from '@engram/proto/identity/v1/identity';
import type { Auth } from './auth.js';
import { completeOnboarding } from './handlers/CompleteOnboarding.js';
import { getSession } from './handlers/GetSession.js';

export function identityService(auth: Auth, options: ServerOptions) {
  return {
    name: 'engram.identity.v1.IdentityService',
    definition: IdentityServiceService,
    // Sessions are resolved for the gateway itself, before any user is known: a service token suffices.
    implementation: implement(
      IdentityServiceService,
      {
        getSession: { access: 'service', handle: getSession(auth) },
        completeOnboarding: { handle: completeOnboarding(auth) },
      },
      options,
    ),
  };
}
