// Registers the organizations service's gRPC handlers. Its features arrive with their own issues; until then
// it serves Describe and the standard health service.
import { implement, type ServerOptions } from '@engram/kit/grpc/server';
import { OrganizationsServiceService } from '@engram/proto/organizations/v1/organizations';
import { describe } from './handlers/Describe.js';

export function organizationsService(options: ServerOptions & { version: string }) {
  return {
    name: 'engram.organizations.v1.OrganizationsService',
    definition: OrganizationsServiceService,
    implementation: implement(
      OrganizationsServiceService,
      { describe: { access: 'service', handle: describe(options.version) } },
      options,
    ),
  };
}
