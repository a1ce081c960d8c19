// Creating and dropping whole PostgreSQL databases for test runs; creating one and naming a service's
// schema are the local stack's own functions, under the names tests use.
import { serviceDatabaseUrl } from '@engram/local/components';
import { ensureDatabase } from '@engram/local/postgres';
import pg from 'pg';

/** Creates `name` (if missing) and returns its URL. */
export const createDatabase = ensureDatabase;

/** A URL for one service's schema inside a database, the form every service's DATABASE_URL takes. */
export const schemaUrl = serviceDatabaseUrl;

/**
 * Creates `name` as a copy of `template` (a database nobody is connected to) and returns its URL: a stack's
 * database with every migration applied already, in the time PostgreSQL takes to copy the files.
 */
export async function createDatabaseFrom(adminUrl: string, name: string, template: string): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;
    await client.query(`create database ${quote(name)} template ${quote(template)}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

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
