// The NATS connection of a process: reconnects forever (a broker restart must not stop a service),
// and logs connection state changes.
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { Logger } from './logger.js';

export async function connectNats(url: string, name: string, logger: Logger): Promise<NatsConnection> {
  const parsed = new URL(url);
  const nc = await connect({
    servers: `${parsed.hostname}:${parsed.port || 4222}`,
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 1_000,
    ...(parsed.username && { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) }),
  });
  void (async () => {
    for await (const event of nc.status()) {
      if (event.type === 'disconnect' || event.type === 'reconnect' || event.type === 'error') {
        logger.warn({ nats: event.type }, 'NATS connection state changed');
      }
    }
  })();
  return nc;
}
