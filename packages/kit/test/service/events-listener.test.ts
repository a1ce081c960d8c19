// The relay's LISTEN connection comes back after PostgreSQL drops it, however often: one connection at a
// time, none leaked, and a database that does not answer never holds it (or its stop) for long.
import { randomBytes } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { createPool } from '@engram/kit/db';
import { listenForOutbox } from '@engram/kit/events/outbox-listener';
import { OUTBOX_CHANNEL_PREFIX } from '@engram/kit/events/tables';
import { expect, it } from 'vitest';
import { useEventsFixture, waitUntil } from '../events-fixture.ts';

const fixture = useEventsFixture();

async function listenerBackends(applicationName: string): Promise<number[]> {
  const { rows } = await fixture.pool.query<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND query LIKE 'LISTEN%'",
    [applicationName],
  );
  return rows.map((row) => row.pid);
}

it('reconnects after its connection is terminated, again and again, holding one connection at most', async () => {
  const applicationName = `listener-${randomBytes(3).toString('hex')}`;
  const url = new URL(fixture.pool.options.connectionString ?? '');
  const { rows } = await fixture.pool.query<{ schema: string }>('SELECT current_schema() AS schema');
  url.searchParams.set('schema', rows[0]!.schema);
  const pool = createPool(url.toString(), { applicationName, max: 4 });
  let notified = 0;
  const listener = listenForOutbox(pool, fixture.logger, () => (notified += 1), { reconnectDelayMs: 50 });
  try {
    for (let round = 0; round < 4; round += 1) {
      await waitUntil('the listener is LISTENing', async () => (await listenerBackends(applicationName)).length === 1);
      const [pid] = await listenerBackends(applicationName);
      await fixture.pool.query('SELECT pg_terminate_backend($1)', [pid]);
      await waitUntil('the listener notices', () => !listener.listening());
    }
    await waitUntil('the listener is back', async () => listener.listening());

    expect(await listenerBackends(applicationName)).toHaveLength(1);
    expect(pool.totalCount).toBe(1);
    const before = notified;
    await fixture.pool.query(`SELECT pg_notify($1, '')`, [`${OUTBOX_CHANNEL_PREFIX}${rows[0]!.schema}`]);
    await waitUntil('a notification arrives', () => notified > before);
  } finally {
    await listener.stop();
    await pool.end();
  }
  expect(pool.totalCount).toBe(0);
});

it('gives up a connection attempt the database never answers within the connect timeout, and stops promptly', async () => {
  const sockets: Socket[] = [];
  // Accepts connections and never answers, like a PostgreSQL host that has hung.
  const silent: Server = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const address = silent.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const pool = createPool(`postgresql://nobody@127.0.0.1:${port}/engram?schema=x`, { connectTimeoutMs: 300, max: 2 });
  const listener = listenForOutbox(pool, fixture.logger, () => undefined, { reconnectDelayMs: 50 });
  try {
    await waitUntil('a second attempt was made after the first timed out', () => sockets.length >= 2, 5_000);
    expect(listener.listening()).toBe(false);
    const stopping = Date.now();
    await listener.stop();
    // Bounded by the connect timeout (300 ms), not by a database that never answers; generous for a busy machine.
    expect(Date.now() - stopping).toBeLessThan(5_000);
    expect(pool.totalCount).toBe(0);
  } finally {
    await pool.end();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  }
});
