// Boots the organizations service: config → telemetry → logger → gRPC server → SERVING → shutdown hooks.
import { runService, serviceRuntime } from '@engram/kit/service';
import { readConfig } from './config.js';
import { organizationsService } from './server.js';

const config = readConfig();
const runtime = serviceRuntime('organizations', config);

await runService(runtime, {
  services: [organizationsService({ ...runtime.serverOptions, version: config.SERVICE_VERSION })],
});
