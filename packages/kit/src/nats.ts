// The NATS connection of a process: waits for the broker when it is absent at start-up (retrying until
// it answers or the wait is cancelled at shutdown), then reconnects forever (a broker restart must not
// stop a service), and logs connection state changes.
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { Logger } from './logger.js';

export interface ConnectNatsOptions {
  /** Ends the wait for the first connection (shutdown); connectNats then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** The pause between attempts while NATS does not answer (default 1 s). */
  retryDelayMs?: number;
}

function abortable(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', stop);
    };
    const stop = () => {
      done();
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      done();
      resolve();
    }, ms);
    signal?.addEventListener('abort', stop, { once: true });
  });
}

export async function connectNats(
  url: string,
  name: string,
  logger: Logger,
  options: ConnectNatsOptions = {},
): Promise<NatsConnection> {
  const parsed = new URL(url);
  const settings = {
    servers: `${parsed.hostname}:${parsed.port || 4222}`,
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 1_000,
    // Otherwise every request (each JetStream publish of the outbox relay) builds two Errors up front, for
    // the stack of a failure that rarely comes: 5 % of the cards service's CPU per review. A failure's stack
    // then starts in the client; the relay's log line says what was being published.
    noAsyncTraces: true,
    ...(parsed.username && { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) }),
  };
  let nc: NatsConnection | undefined;
  for (let attempt = 1; !nc; attempt += 1) {
    options.signal?.throwIfAborted();
    try {
      nc = await connect(settings);
    } catch (error) {
      if (attempt === 1 || attempt % 30 === 0) {
        logger.warn({ err: error, attempt, servers: settings.servers }, 'NATS is not reachable yet; still trying');
      }
      await abortable(options.retryDelayMs ?? 1_000, options.signal);
    }
  }
  if (options.signal?.aborted) {
    await nc.close();
    options.signal.throwIfAborted();
  }
  const connection = nc;
  void (async () => {
    for await (const event of connection.status()) {
      if (event.type === 'disconnect' || event.type === 'reconnect' || event.type === 'error') {
        logger.warn({ nats: event.type }, 'NATS connection state changed');
      }
    }
  })();
  return connection;
}
