// A connection to one service's schema of the proof's database, as that service itself connects (its search path),
// for the learners' set-up, the checks after each scenario and the attacks that read what a service kept.
import { parseDatabaseUrl, searchPathOption } from '@engram/kit/db';
import { serviceDatabaseUrl } from '@engram/local/components';
import pg from 'pg';

export async function schemaClient(databaseUrl: string, schema: string): Promise<pg.Client> {
  const { connectionString } = parseDatabaseUrl(serviceDatabaseUrl(databaseUrl, schema));
  const client = new pg.Client({ connectionString, options: searchPathOption(schema) });
  await client.connect();
  return client;
}
