// The cards service's parts: its stores (Prisma and a pg pool on one schema), its four gRPC services, and
// its events (relay and consumers). runService boots and stops them in its order
// (docs/architecture.md#boot-and-shutdown).
import { serviceNameOf } from '@engram/kit/grpc/service-name';
import { runService, serviceRuntime } from '@engram/kit/service';
import { CardsServiceService } from '@engram/proto/cards/v1/cards';
import { readConfig } from './config.js';
import { closeStores, createStores } from './db.js';
import { cardsEvents } from './events/index.js';
import { cardsServices } from './server.js';

const config = readConfig();
const runtime = serviceRuntime(serviceNameOf(CardsServiceService), config);

const stores = createStores(config.DATABASE_URL, { logger: runtime.logger });

await runService(runtime, {
  services: cardsServices(stores, runtime.serverOptions),
  events: cardsEvents(stores.db, config),
  close: [{ name: 'database', run: () => closeStores(stores) }],
});
