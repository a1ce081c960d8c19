// Database access for a service: every service owns one PostgreSQL schema, named by the `schema` query
// parameter of its DATABASE_URL. `pg` does not understand that parameter, so it is stripped here and the
// schema is selected per connection instead (search_path for pg, the `schema` option for Prisma). A
// `connection_limit` parameter (Prisma's name for it) caps every pool the service opens on that URL.
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import type { Logger } from './logger.js';

export interface DatabaseUrl {
  /** The URL without the `schema` and `connection_limit` parameters, as pg expects it. */
  connectionString: string;
  schema: string;
  /** The most connections any one pool on this URL may hold, when the URL says. */
  connectionLimit?: number;
}

export function parseDatabaseUrl(url: string): DatabaseUrl {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get('schema') || 'public';
  const limit = Number(parsed.searchParams.get('connection_limit'));
  parsed.searchParams.delete('schema');
  parsed.searchParams.delete('connection_limit');
  return {
    connectionString: parsed.toString(),
    schema,
    ...(Number.isInteger(limit) && limit > 0 && { connectionLimit: limit }),
  };
}

/** A pool's size: what its owner asks for (pg's default of 10 without), never more than the URL's limit. */
export const poolSize = (asked: number | undefined, limit: number | undefined) =>
  Math.min(asked ?? 10, limit ?? Number.POSITIVE_INFINITY);

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

/** How long a pool waits for a new connection before the query that needed it fails. */
export const CONNECT_TIMEOUT_MS = 5_000;

export interface PoolOptions {
  max?: number;
  /** Shown in pg_stat_activity, which tells apart the services sharing one database. */
  applicationName?: string;
  /** Where connection errors are reported; without one they are still caught, never fatal. */
  logger?: Logger;
  connectTimeoutMs?: number;
}

/**
 * Keeps a lost connection from killing the process: pg emits 'error' on an idle client of the pool (the
 * server restarted, an administrator terminated the backend) and on a checked-out client between
 * queries, and an 'error' event nobody listens to is thrown by Node. The pool drops a broken idle client
 * by itself; a checked-out one fails its next query, and its holder releases it with that error.
 */
export function watchPoolErrors(pool: pg.Pool, logger?: Logger): pg.Pool {
  const report = (error: Error, where: string) =>
    logger?.warn({ err: error, where }, 'PostgreSQL connection lost; the pool replaces it');
  pool.on('error', (error) => report(error, 'idle client'));
  pool.on('connect', (client) => {
    client.on('error', (error) => report(error, 'client in use'));
  });
  return pool;
}

export function createPool(url: string, options: PoolOptions = {}): pg.Pool {
  const { connectionString, schema, connectionLimit } = parseDatabaseUrl(url);
  const pool = new pg.Pool({
    connectionString,
    options: searchPathOption(schema),
    connectionTimeoutMillis: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
    max: poolSize(options.max, connectionLimit),
    ...(options.applicationName === undefined ? {} : { application_name: options.applicationName }),
  });
  return watchPoolErrors(pool, options.logger);
}

/**
 * A Prisma 7 client for the service's schema. Prisma qualifies its own queries with the adapter's
 * `schema`; the search_path also covers raw SQL run through the client.
 */
export function createPrismaClient<T>(
  PrismaClient: new (options: { adapter: PrismaPg }) => T,
  url: string,
  options: Pick<PoolOptions, 'logger' | 'connectTimeoutMs' | 'applicationName'> = {},
): T {
  const { connectionString, schema, connectionLimit } = parseDatabaseUrl(url);
  const adapter = new PrismaPg(
    {
      connectionString,
      options: searchPathOption(schema),
      max: poolSize(undefined, connectionLimit),
      connectionTimeoutMillis: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
      ...(options.applicationName === undefined ? {} : { application_name: options.applicationName }),
    },
    {
      schema,
      onPoolError: (error) => options.logger?.warn({ err: error, where: 'idle client' }, 'PostgreSQL connection lost'),
      onConnectionError: (error) =>
        options.logger?.warn({ err: error, where: 'client in use' }, 'PostgreSQL connection lost'),
    },
  );
  return new PrismaClient({ adapter });
}

/**
 * A warm replica has two connections open. What a cold one pays is mostly per process (Prisma loads its query
 * compiler on the first query: half a second under load, measured), while a connection more takes about 15 ms;
 * with five each, a whole stack held 46 connections for its first seconds, and the test suite's stacks booting
 * together reached PostgreSQL's 100 (a loaded run's calls were refused "too many clients").
 */
export const WARM_CONNECTIONS = 2;

/** What a warm-up needs of a Prisma client. */
export interface RawQueries {
  $queryRawUnsafe(query: string): Promise<unknown>;
}

/**
 * Opens `connections` connections of a pg pool or of a Prisma client's, with one query on each, for a replica to
 * run before it says ready: its first calls then skip setting up their connections and, with Prisma, loading
 * the query compiler that its first query loads (half a second on a loaded two-core machine, measured).
 */
export async function warmDatabase(store: pg.Pool | RawQueries, connections = WARM_CONNECTIONS): Promise<void> {
  const query = '$queryRawUnsafe' in store ? () => store.$queryRawUnsafe('select 1') : () => store.query('select 1');
  await Promise.all(Array.from({ length: connections }, query));
}

// PostgreSQL's answers that mean "not reachable now" (connection exceptions, an administrator's or a crash's
// shutdown, a server starting up, no connection slot free) and Node's for a connection that failed.
const UNREACHABLE_CODES = new Set([
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const UNREACHABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|not currently accepting connections|the database system is (starting up|shutting down|in recovery mode)|Client has encountered a connection error/i;

/**
 * Whether `error` says the database could not be reached (rather than that a statement was wrong): pg's
 * errors carry the code themselves; Prisma's adapter wraps them (cause, originalCode, originalMessage).
 * Such a failure is the caller's to try again, not a bug: the gRPC server answers it UNAVAILABLE.
 */
export function databaseUnreachable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false;
  const found = error as {
    code?: unknown;
    originalCode?: unknown;
    message?: unknown;
    originalMessage?: unknown;
    cause?: unknown;
    meta?: { driverAdapterError?: unknown };
  };
  for (const code of [found.code, found.originalCode])
    if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return true;
  for (const message of [found.message, found.originalMessage])
    if (typeof message === 'string' && UNREACHABLE_MESSAGES.test(message)) return true;
  return databaseUnreachable(found.cause, depth + 1) || databaseUnreachable(found.meta?.driverAdapterError, depth + 1);
}

/** COMMIT answered ROLLBACK: a statement failed inside the transaction (and was caught), so nothing was saved. */
export class TransactionAborted extends Error {
  constructor() {
    super('the transaction was aborted by an earlier failed statement; nothing was committed');
    this.name = 'TransactionAborted';
  }
}

const commitCallbacks = new WeakMap<pg.PoolClient, Set<(pool: pg.Pool) => void>>();

/**
 * Calls `callback` with the pool once the `inTransaction` that `client` is running commits (once per
 * callback however often it is registered); nothing happens when it rolls back.
 */
export function afterCommit(client: pg.PoolClient, callback: (pool: pg.Pool) => void): void {
  const callbacks = commitCallbacks.get(client);
  if (callbacks) callbacks.add(callback);
  else commitCallbacks.set(client, new Set([callback]));
}

/**
 * Runs `work` in one pg transaction on a pooled client: COMMIT when it resolves, ROLLBACK when it throws;
 * after a COMMIT, the `afterCommit` callbacks run.
 * A client whose ROLLBACK failed is discarded (its connection is in an unknown state), not reused.
 */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    const committed = await client.query('COMMIT');
    if (committed.command === 'ROLLBACK') throw new TransactionAborted();
    for (const callback of commitCallbacks.get(client) ?? []) callback(pool);
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError: Error) => {
      broken = rollbackError;
    });
    throw error;
  } finally {
    commitCallbacks.delete(client);
    client.release(broken);
  }
}

/**
 * Whether `error` is a unique-constraint failure: a row another call wrote first (a tag name the learner has
 * already, the same file kept by two calls at once, a checkout a retry started). Prisma reports it as P2002,
 * pg as SQLSTATE 23505.
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'P2002' || code === '23505';
}
