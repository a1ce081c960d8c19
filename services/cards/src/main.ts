// Boots the cards service: config → telemetry → logger → stores → events (relay and consumers, in the
// background) → gRPC server → SERVING → shutdown in reverse.
import { runService, serviceRuntime } from '@engram/kit/service';
import { readConfig } from './config.js';
import { closeStores, createStores } from './db.js';
import { cardsEvents } from './events/index.js';
import { cardsServices } from './server.js';

const config = readConfig();
const runtime = serviceRuntime('cards', config);

const stores = createStores(config.DATABASE_URL, { logger: runtime.logger });

await runService(runtime, {
  services: cardsServices(stores, runtime.serverOptions),
  events: cardsEvents(stores.db, config),
  close: [{ name: 'database', run: () => closeStores(stores) }],
});
