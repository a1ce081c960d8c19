// Boots the ai service: config → telemetry → logger → gRPC server → SERVING → shutdown hooks.
import { runService, serviceRuntime } from '@engram/kit/service';
import { readConfig } from './config.js';
import { aiService } from './server.js';

const config = readConfig();
const runtime = serviceRuntime('ai', config);

await runService(runtime, {
  services: [aiService({ ...runtime.serverOptions, version: config.SERVICE_VERSION })],
});
