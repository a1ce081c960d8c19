// Database access for a service: every service owns one PostgreSQL schema, named by the `schema` query
// parameter of its DATABASE_URL. `pg` does not understand that parameter, so it is stripped here and the
// schema is selected per connection instead (search_path for pg, the `schema` option for Prisma).
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';

export interface DatabaseUrl {
  /** The URL without the `schema` parameter, as pg expects it. */
  connectionString: string;
  schema: string;
}

export function parseDatabaseUrl(url: string): DatabaseUrl {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get('schema') || 'public';
  parsed.searchParams.delete('schema');
  return { connectionString: parsed.toString(), schema };
}

/** A double-quoted SQL identifier, safe for any schema name. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * The startup `options` that make every connection of a pool resolve unqualified names in `schema`.
 * PostgreSQL splits this string on spaces and unescapes backslashes, so both are escaped after quoting.
 */
export function searchPathOption(schema: string): string {
  return `-c search_path=${quoteIdentifier(schema).replace(/[\\\s]/g, '\\$&')}`;
}

export interface PoolOptions {
  max?: number;
  /** Shown in pg_stat_activity, which tells apart the services sharing one database. */
  applicationName?: string;
}

export function createPool(url: string, options: PoolOptions = {}): pg.Pool {
  const { connectionString, schema } = parseDatabaseUrl(url);
  return new pg.Pool({
    connectionString,
    options: searchPathOption(schema),
    ...(options.max === undefined ? {} : { max: options.max }),
    ...(options.applicationName === undefined ? {} : { application_name: options.applicationName }),
  });
}

/**
 * A Prisma 7 client for the service's schema. Prisma qualifies its own queries with the adapter's
 * `schema`; the search_path also covers raw SQL run through the client.
 */
export function createPrismaClient<T>(PrismaClient: new (options: { adapter: PrismaPg }) => T, url: string): T {
  const { connectionString, schema } = parseDatabaseUrl(url);
  const adapter = new PrismaPg({ connectionString, options: searchPathOption(schema) }, { schema });
  return new PrismaClient({ adapter });
}
