// Creating and dropping whole PostgreSQL databases for test runs and the local stack.
import pg from 'pg';

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function admin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Creates `name` (if missing) and returns its URL. */
export async function createDatabase(adminUrl: string, name: string): Promise<string> {
  await admin(adminUrl, async (client) => {
    const exists = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (exists.rowCount === 0) await client.query(`create database "${name}"`);
  });
  return withDatabase(adminUrl, name);
}

export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await admin(adminUrl, (client) => client.query(`drop database if exists "${name}" with (force)`));
}

/** A URL for one service's schema inside a database, the form every service's DATABASE_URL takes. */
export function schemaUrl(databaseUrl: string, schema: string): string {
  const parsed = new URL(databaseUrl);
  parsed.searchParams.set('schema', schema);
  return parsed.toString();
}
