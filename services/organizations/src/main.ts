// The organizations service's parts: its database, clients of identity and cards, and its events (its
// outbox relay and consumers). runService boots and stops them in its order
// (docs/architecture.md#boot-and-shutdown).
import { warmDatabase } from '@engram/kit/db';
import { createClient } from '@engram/kit/grpc/client';
import { serviceNameOf } from '@engram/kit/grpc/service-name';
import { runService, serviceRuntime } from '@engram/kit/service';
import { CardsServiceClient } from '@engram/proto/cards/v1/cards';
import { IdentityServiceClient } from '@engram/proto/identity/v1/identity';
import { OrganizationsServiceService } from '@engram/proto/organizations/v1/organizations';
import { readConfig } from './config.js';
import { createDb } from './db.js';
import { organizationsEvents } from './events/index.js';
import { organizationsService } from './server.js';

const config = readConfig();
const runtime = serviceRuntime(serviceNameOf(OrganizationsServiceService), config);

const db = createDb(config.DATABASE_URL, runtime.logger);
const identity = createClient(IdentityServiceClient, config.IDENTITY_ADDR);
const cards = createClient(CardsServiceClient, config.CARDS_ADDR);

await runService(runtime, {
  warmUp: () => warmDatabase(db),
  services: [
    organizationsService({ db, identity, cards }, { ...runtime.serverOptions, version: config.SERVICE_VERSION }),
  ],
  events: organizationsEvents(db),
  close: [
    {
      name: 'service clients',
      run: () => {
        identity.close();
        cards.close();
      },
    },
    { name: 'database', run: () => db.$disconnect() },
  ],
});
