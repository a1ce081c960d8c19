// Boots the billing service: config → telemetry → logger → webhook HTTP + gRPC server → SERVING → shutdown hooks.
import { runService, serviceRuntime } from '@engram/kit/service';
import { readConfig } from './config.js';
import { billingService } from './server.js';
import { startWebhookServer } from './webhooks.js';

const config = readConfig();
const runtime = serviceRuntime('billing', config);
const webhooks = await startWebhookServer(config.HTTP_PORT, runtime.logger);

await runService(runtime, {
  services: [billingService({ ...runtime.serverOptions, version: config.SERVICE_VERSION })],
  close: [{ name: 'webhooks http', run: () => webhooks.close() }],
});
