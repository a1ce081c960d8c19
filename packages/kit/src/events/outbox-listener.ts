// Holds one connection that LISTENs for the schema's outbox notifications and calls `onNotify`, so the
// relay publishes as soon as a transaction with an event commits. After losing the connection it
// reconnects, with at most one reconnect pending at any time and every lost client released to the pool
// (destroyed); meanwhile the relay's polling covers for it. Every wait is bounded: the pool's connect
// timeout, and `setupTimeoutMs` for the LISTEN itself.
import type pg from 'pg';
import { quoteIdentifier } from '../db.js';
import type { Logger } from '../logger.js';
import { OUTBOX_CHANNEL_PREFIX } from './tables.js';

export interface OutboxListener {
  /** True while a connection is LISTENing. */
  listening(): boolean;
  stop(): Promise<void>;
}

export interface OutboxListenerOptions {
  reconnectDelayMs?: number;
  setupTimeoutMs?: number;
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export function listenForOutbox(
  pool: pg.Pool,
  logger: Logger,
  onNotify: () => void,
  options: OutboxListenerOptions = {},
): OutboxListener {
  const reconnectDelayMs = options.reconnectDelayMs ?? 1_000;
  const setupTimeoutMs = options.setupTimeoutMs ?? 5_000;
  let stopped = false;
  let client: pg.PoolClient | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let connecting: Promise<void> | undefined;

  /** Gives the client back to the pool, destroyed: a LISTENing session must not serve other queries. */
  function drop(lost: pg.PoolClient, error?: Error) {
    if (client === lost) client = undefined;
    lost.removeAllListeners('notification');
    lost.release(error ?? true);
  }

  /** Schedules a reconnect unless one is already pending or under way. */
  function scheduleConnect() {
    if (stopped || retryTimer !== undefined || connecting !== undefined) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      startConnecting();
    }, reconnectDelayMs);
  }

  function startConnecting() {
    connecting = connect().then((ok) => {
      connecting = undefined;
      if (!ok) scheduleConnect();
    });
  }

  /** One attempt; resolves false when it failed and another should follow. */
  async function connect(): Promise<boolean> {
    let connected: pg.PoolClient | undefined;
    try {
      connected = await pool.connect();
      const mine = connected;
      // Kept after the client is dropped too: a late error of a lost client must not be unhandled.
      mine.on('error', (error) => {
        if (client !== mine) return;
        logger.warn({ err: error }, 'outbox listener lost its connection');
        drop(mine, error);
        scheduleConnect();
      });
      mine.on('notification', () => onNotify());
      const setup = async () => {
        const { rows } = await mine.query<{ schema: string }>('SELECT current_schema() AS schema');
        await mine.query(`LISTEN ${quoteIdentifier(`${OUTBOX_CHANNEL_PREFIX}${rows[0]?.schema}`)}`);
      };
      await withTimeout(setup(), setupTimeoutMs, 'LISTEN');
      if (stopped) {
        drop(mine);
        return true;
      }
      client = mine;
      // Events committed while we were not listening sent notifications nobody heard.
      onNotify();
      return true;
    } catch (error) {
      logger.warn({ err: error }, 'outbox listener could not LISTEN; relying on polling until it can');
      if (connected) drop(connected, error as Error);
      return stopped;
    }
  }

  startConnecting();

  return {
    listening: () => client !== undefined,
    async stop() {
      stopped = true;
      clearTimeout(retryTimer);
      retryTimer = undefined;
      await connecting;
      if (client) drop(client);
    },
  };
}
