// The production migration runner: applies a service's committed `prisma/migrations/*/migration.sql` to
// its schema and records them in `_prisma_migrations` exactly as Prisma's CLI does, so `prisma migrate
// status/deploy/resolve` keep working on a database migrated here. It needs only `pg`: Prisma's migration
// engine is a download (or an internal wasm package) that has no place in a production image.
//
// Each migration runs in one transaction with its bookkeeping row, so a failure leaves nothing behind.
// The price: a migration.sql must not manage transactions itself nor use statements PostgreSQL refuses
// inside one (CREATE INDEX CONCURRENTLY, ALTER SYSTEM, ...). Prisma's drafts never do.
import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { parseDatabaseUrl, quoteIdentifier, searchPathOption } from './db.js';
import type { Logger } from './logger.js';

export interface ApplyMigrationsOptions {
  /** The service's DATABASE_URL; its `schema` parameter names the schema to migrate. */
  databaseUrl: string;
  /** The folder holding `<timestamp>_<name>/migration.sql` folders. */
  migrationsDir: string;
  logger?: Pick<Logger, 'info' | 'warn'>;
}

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

interface MigrationRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

/** The table Prisma's schema engine creates for PostgreSQL, column for column. */
function migrationsTableDdl(table: string): string {
  return `CREATE TABLE IF NOT EXISTS ${table} (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;
}

export class MigrationError extends Error {
  readonly migration: string;
  constructor(migration: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'MigrationError';
    this.migration = migration;
  }
}

/** Prisma's checksum: the SHA-256 of migration.sql, in lower-case hex. */
export function migrationChecksum(sql: string): string {
  return createHash('sha256').update(sql).digest('hex');
}

/** The migration folders that contain a migration.sql, in name (and so time) order. */
export async function readMigrations(migrationsDir: string): Promise<MigrationFile[]> {
  const entries = await readdir(migrationsDir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const migrations: MigrationFile[] = [];
  for (const name of names) {
    const sql = await readFile(join(migrationsDir, name, 'migration.sql'), 'utf8').catch(() => null);
    if (sql !== null) migrations.push({ name, sql, checksum: migrationChecksum(sql) });
  }
  return migrations;
}

/** The advisory lock key of one schema: replicas migrating the same schema queue; other schemas do not wait. */
function lockKey(schema: string): string {
  return `engram-migrate:${schema}`;
}

function refuseUnsafeHistory(rows: MigrationRow[], migrations: MigrationFile[]): void {
  const failed = rows.find((row) => row.finished_at === null && row.rolled_back_at === null);
  if (failed) {
    throw new MigrationError(
      failed.migration_name,
      `Migration ${failed.migration_name} failed earlier and may have left the schema half-changed. Repair the ` +
        `schema, then mark it with \`prisma migrate resolve --rolled-back ${failed.migration_name}\` (or --applied).`,
    );
  }
  const onDisk = new Map(migrations.map((migration) => [migration.name, migration]));
  for (const row of rows) {
    if (row.finished_at === null || row.rolled_back_at !== null) continue;
    const file = onDisk.get(row.migration_name);
    if (file && file.checksum !== row.checksum) {
      throw new MigrationError(
        row.migration_name,
        `Migration ${row.migration_name} was modified after it was applied (checksum ${row.checksum} in the ` +
          `database, ${file.checksum} on disk). Applied migrations must not change; add a new migration instead.`,
      );
    }
  }
}

async function applyOne(client: pg.Client, table: string, migration: MigrationFile): Promise<void> {
  const id = randomUUID();
  try {
    await client.query('BEGIN');
    const started = await client.query<{ now: Date }>('SELECT clock_timestamp() AS now');
    // No parameters: the simple query protocol runs a script of many statements in one call.
    await client.query(migration.sql);
    await client.query(
      `INSERT INTO ${table}
         (id, checksum, migration_name, started_at, finished_at, applied_steps_count, logs)
       VALUES ($1, $2, $3, $4, clock_timestamp(), 1, NULL)`,
      [id, migration.checksum, migration.name, started.rows[0]?.now],
    );
    await client.query('COMMIT');
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // The transaction left the schema untouched, so the failure is recorded as already rolled back: an
    // audit trail Prisma's CLI understands, which does not block the next attempt with a fixed file.
    // Both steps are best effort: when the connection itself broke, the original error is the news.
    await client
      .query('ROLLBACK')
      .then(() =>
        client.query(
          `INSERT INTO ${table}
             (id, checksum, migration_name, started_at, rolled_back_at, applied_steps_count, logs)
           VALUES ($1, $2, $3, now(), now(), 0, $4)`,
          [id, migration.checksum, migration.name, message],
        ),
      )
      .catch(() => undefined);
    throw new MigrationError(migration.name, `Migration ${migration.name} failed and was rolled back: ${message}`, {
      cause: error,
    });
  }
}

export async function applyMigrations({
  databaseUrl,
  migrationsDir,
  logger,
}: ApplyMigrationsOptions): Promise<{ applied: string[] }> {
  const migrations = await readMigrations(migrationsDir);
  const { connectionString, schema } = parseDatabaseUrl(databaseUrl);
  const client = new pg.Client({
    connectionString,
    options: searchPathOption(schema),
    application_name: 'engram-migrate',
  });
  await client.connect();
  try {
    // A session lock, held across the per-migration transactions; released when the session ends too.
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [lockKey(schema)]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(schema)}`);
    const table = `${quoteIdentifier(schema)}."_prisma_migrations"`;
    await client.query(migrationsTableDdl(table));
    const { rows } = await client.query<MigrationRow>(
      `SELECT migration_name, checksum, finished_at, rolled_back_at FROM ${table} ORDER BY started_at`,
    );
    refuseUnsafeHistory(rows, migrations);
    const done = new Set(rows.filter((row) => row.finished_at && !row.rolled_back_at).map((row) => row.migration_name));
    const known = new Set(migrations.map((migration) => migration.name));
    const unknown = [...done].filter((name) => !known.has(name));
    if (unknown.length > 0) {
      logger?.warn({ schema, migrations: unknown }, 'applied migrations are missing from the migrations folder');
    }
    const applied: string[] = [];
    for (const migration of migrations) {
      if (done.has(migration.name)) continue;
      await applyOne(client, table, migration);
      applied.push(migration.name);
      logger?.info({ schema, migration: migration.name }, 'migration applied');
    }
    if (applied.length === 0) logger?.info({ schema }, 'schema is up to date');
    return { applied };
  } finally {
    await client.end();
  }
}
