// Creating and dropping whole PostgreSQL databases for test runs; creating one and naming a service's
// schema are the local stack's own functions, under the names tests use.
import { serviceDatabaseUrl } from '@engram/local/components';
import { ensureDatabase } from '@engram/local/postgres';
import pg from 'pg';

/** Creates `name` (if missing) and returns its URL. */
export const createDatabase = ensureDatabase;

/** A URL for one service's schema inside a database, the form every service's DATABASE_URL takes. */
export const schemaUrl = serviceDatabaseUrl;

export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`drop database if exists "${name.replaceAll('"', '""')}" with (force)`);
  } finally {
    await client.end();
  }
}

/** Drops every database whose name starts with `prefix` (a run's, including stacks a worker left running). */
export async function dropDatabasesStartingWith(adminUrl: string, prefix: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      `select datname from pg_database where starts_with(datname, $1)`,
      [prefix],
    );
    for (const { datname } of rows)
      await client.query(`drop database if exists "${datname.replaceAll('"', '""')}" with (force)`);
  } finally {
    await client.end();
  }
}
