// Registers the organizations service's gRPC handlers: decks, subscriptions, assignments, progress and the
// caller's part of a data export.
import { implement, type ServerOptions } from '@engram/kit/grpc/server';
import { OrganizationsServiceService } from '@engram/proto/organizations/v1/organizations';
import type { OrganizationsDeps } from './deps.js';
import { createAssignment } from './handlers/create-assignment.js';
import { deleteAssignment } from './handlers/delete-assignment.js';
import { deleteDeck } from './handlers/delete-deck.js';
import { describe } from './handlers/describe.js';
import { exportUserData } from './handlers/export-user-data.js';
import { getProgress } from './handlers/get-progress.js';
import { listAssignments } from './handlers/list-assignments.js';
import { listDecks } from './handlers/list-decks.js';
import { publishDeck } from './handlers/publish-deck.js';
import { subscribe } from './handlers/subscribe.js';
import { syncDeck } from './handlers/sync-deck.js';
import { unsubscribe } from './handlers/unsubscribe.js';

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
        exportUserData: { handle: exportUserData(deps) },
      },
      options,
    ),
  };
}
