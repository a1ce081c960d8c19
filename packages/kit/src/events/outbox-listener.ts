// Holds one connection that LISTENs for the schema's outbox notifications and calls `onNotify`, so the
// relay publishes as soon as a transaction with an event commits. It reconnects after losing the
// connection; meanwhile the relay's polling covers for it.
import type pg from 'pg';
import { quoteIdentifier } from '../db.js';
import type { Logger } from '../logger.js';
import { OUTBOX_CHANNEL_PREFIX } from './tables.js';

export interface OutboxListener {
  stop(): Promise<void>;
}

const RECONNECT_DELAY_MS = 1_000;

export function listenForOutbox(pool: pg.Pool, logger: Logger, onNotify: () => void): OutboxListener {
  let stopped = false;
  let client: pg.PoolClient | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let connecting: Promise<void> = Promise.resolve();

  function scheduleConnect() {
    retryTimer = setTimeout(() => {
      connecting = connect();
    }, RECONNECT_DELAY_MS);
  }

  function drop(error?: Error) {
    const lost = client;
    client = undefined;
    lost?.removeAllListeners('notification');
    lost?.release(error ?? true);
    if (!stopped) scheduleConnect();
  }

  async function connect() {
    retryTimer = undefined;
    let connected: pg.PoolClient | undefined;
    try {
      connected = await pool.connect();
      client = connected;
      connected.on('error', (error) => {
        logger.warn({ err: error }, 'outbox listener lost its connection');
        if (client === connected) drop(error);
      });
      connected.on('notification', () => onNotify());
      const { rows } = await connected.query<{ schema: string }>('SELECT current_schema() AS schema');
      await connected.query(`LISTEN ${quoteIdentifier(`${OUTBOX_CHANNEL_PREFIX}${rows[0]?.schema}`)}`);
      if (stopped) return drop();
      // Events committed while we were not listening sent notifications nobody heard.
      onNotify();
    } catch (error) {
      logger.warn({ err: error }, 'outbox listener could not LISTEN; relying on polling until it can');
      if (connected && client === connected) drop(error as Error);
      else if (!stopped) scheduleConnect();
    }
  }

  connecting = connect();

  return {
    async stop() {
      stopped = true;
      clearTimeout(retryTimer);
      await connecting;
      if (client) drop();
    },
  };
}
