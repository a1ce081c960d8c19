// Registers the organizations service's gRPC handlers: decks, subscriptions, assignments and progress.
import { implement, type ServerOptions } from '@engram/kit/grpc/server';
import { OrganizationsServiceService } from '@engram/proto/organizations/v1/organizations';
import type { OrganizationsDeps } from './deps.js';
import { createAssignment, deleteAssignment, listAssignments } from './handlers/assignments.js';
import { describe } from './handlers/Describe.js';
import { deleteDeck, listDecks, publishDeck, syncDeck } from './handlers/decks.js';
import { getProgress } from './handlers/progress.js';
import { subscribe, unsubscribe } from './handlers/subscriptions.js';

export function organizationsService(deps: OrganizationsDeps, options: ServerOptions & { version: string }) {
  return {
    name: 'engram.organizations.v1.OrganizationsService',
    definition: OrganizationsServiceService,
    implementation: implement(
      OrganizationsServiceService,
      {
        describe: { access: 'service', handle: describe(options.version) },
        listDecks: { handle: listDecks(deps) },
        publishDeck: { handle: publishDeck(deps) },
        syncDeck: { handle: syncDeck(deps) },
        deleteDeck: { handle: deleteDeck(deps) },
        subscribe: { handle: subscribe(deps) },
        unsubscribe: { handle: unsubscribe(deps) },
        createAssignment: { handle: createAssignment(deps) },
        deleteAssignment: { handle: deleteAssignment(deps) },
        listAssignments: { handle: listAssignments(deps) },
        getProgress: { handle: getProgress(deps) },
      },
      options,
    ),
  };
}
