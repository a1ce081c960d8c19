// The production migration runner against real PostgreSQL: what it applies, what it records in
// `_prisma_migrations`, and what it refuses.
import { randomBytes } from 'node:crypto';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPool } from '@engram/kit/db';
import { applyMigrations, migrationChecksum } from '@engram/kit/migrate';
import { testContext } from '@engram/testkit/context';
import { schemaUrl } from '@engram/testkit/databases';
import { afterEach, describe, expect, it } from 'vitest';

const fixture = join(import.meta.dirname, '../fixtures/prisma/migrations');
const INIT = '20261122000025_init';
const ADD_BACK = '20261122000029_add_card_back';

function freshSchemaUrl(): string {
  return schemaUrl(testContext().databaseUrl, `kit_migrate_${randomBytes(4).toString('hex')}`);
}

async function query<T>(url: string, sql: string, values: unknown[] = []): Promise<T[]> {
  const pool = createPool(url, { max: 1 });
  try {
    return (await pool.query(sql, values)).rows as T[];
  } finally {
    await pool.end();
  }
}

const tempDirs: string[] = [];
afterEach(async () => {
  await Promise.all(tempDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function copyOfFixture(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'kit-migrate-'));
  tempDirs.push(dir);
  await cp(fixture, dir, { recursive: true });
  return dir;
}

async function addMigration(dir: string, name: string, sql: string): Promise<void> {
  await mkdir(join(dir, name));
  await writeFile(join(dir, name, 'migration.sql'), sql);
}

interface MigrationRow {
  id: string;
  checksum: string;
  migration_name: string;
  started_at: Date;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  applied_steps_count: number;
  logs: string | null;
}

const rowsOf = (url: string) =>
  query<MigrationRow>(url, 'select * from "_prisma_migrations" order by migration_name, started_at');

describe('applyMigrations', () => {
  it('creates the schema, applies every migration in name order and records each one as Prisma does', async () => {
    const url = freshSchemaUrl();
    const { applied } = await applyMigrations({ databaseUrl: url, migrationsDir: fixture });

    expect(applied).toEqual([INIT, ADD_BACK]);
    await query(url, `insert into decks (id, name) values ('8a4c3d52-59a2-4c11-9a5e-0f8f1c7e2b10', 'Spanish')`);
    const cards = await query(
      url,
      `insert into cards (id, deck_id, front) values (gen_random_uuid(), '8a4c3d52-59a2-4c11-9a5e-0f8f1c7e2b10', 'hola') returning back`,
    );
    expect(cards).toEqual([{ back: '' }]);

    const rows = await rowsOf(url);
    expect(rows.map((row) => row.migration_name)).toEqual([INIT, ADD_BACK]);
    for (const row of rows) {
      const sql = await readFile(join(fixture, row.migration_name, 'migration.sql'), 'utf8');
      expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(row.checksum).toBe(migrationChecksum(sql));
      expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(row.finished_at?.getTime()).toBeGreaterThanOrEqual(row.started_at.getTime());
      expect(row.rolled_back_at).toBeNull();
      expect(row.applied_steps_count).toBe(1);
      expect(row.logs).toBeNull();
    }
  });

  it('applies nothing when run again', async () => {
    const url = freshSchemaUrl();
    await applyMigrations({ databaseUrl: url, migrationsDir: fixture });

    const second = await applyMigrations({ databaseUrl: url, migrationsDir: fixture });

    expect(second.applied).toEqual([]);
    expect(await rowsOf(url)).toHaveLength(2);
  });

  it('applies only the migrations added since the last run', async () => {
    const url = freshSchemaUrl();
    const dir = await copyOfFixture();
    await applyMigrations({ databaseUrl: url, migrationsDir: dir });
    await addMigration(dir, '20261123000000_add_deck_color', 'ALTER TABLE "decks" ADD COLUMN "color" TEXT;');

    const { applied } = await applyMigrations({ databaseUrl: url, migrationsDir: dir });

    expect(applied).toEqual(['20261123000000_add_deck_color']);
  });

  it('applies each migration exactly once when several runners start together', async () => {
    const url = freshSchemaUrl();

    const runs = await Promise.all(
      Array.from({ length: 4 }, () => applyMigrations({ databaseUrl: url, migrationsDir: fixture })),
    );

    expect(runs.flatMap((run) => run.applied).sort()).toEqual([INIT, ADD_BACK]);
    expect(await rowsOf(url)).toHaveLength(2);
  });

  it('refuses to continue when an applied migration was edited, naming it', async () => {
    const url = freshSchemaUrl();
    const dir = await copyOfFixture();
    await applyMigrations({ databaseUrl: url, migrationsDir: dir });
    await writeFile(
      join(dir, INIT, 'migration.sql'),
      `${await readFile(join(dir, INIT, 'migration.sql'), 'utf8')}\n-- edited`,
    );
    await addMigration(dir, '20261123000000_add_deck_color', 'ALTER TABLE "decks" ADD COLUMN "color" TEXT;');

    await expect(applyMigrations({ databaseUrl: url, migrationsDir: dir })).rejects.toThrow(
      new RegExp(`${INIT} was modified after it was applied`),
    );
    const columns = await query(
      url,
      `select 1 from information_schema.columns where table_schema = current_schema() and table_name = 'decks' and column_name = 'color'`,
    );
    expect(columns).toEqual([]);
  });

  it('rolls back a failing migration, reports it by name and applies nothing after it', async () => {
    const url = freshSchemaUrl();
    const dir = await copyOfFixture();
    await addMigration(dir, '20261123000000_broken', 'CREATE TABLE "half_done" (id int);\nSELECT 1 / 0;');
    await addMigration(dir, '20261124000000_after', 'CREATE TABLE "after_broken" (id int);');

    await expect(applyMigrations({ databaseUrl: url, migrationsDir: dir })).rejects.toThrow(
      /Migration 20261123000000_broken failed and was rolled back: division by zero/,
    );

    const tables = await query<{ table_name: string }>(
      url,
      `select table_name from information_schema.tables where table_schema = current_schema() order by 1`,
    );
    expect(tables.map((table) => table.table_name)).toEqual(['_prisma_migrations', 'cards', 'decks']);
    const broken = (await rowsOf(url)).filter((row) => row.migration_name === '20261123000000_broken');
    expect(broken).toHaveLength(1);
    expect(broken[0]).toMatchObject({ finished_at: null, applied_steps_count: 0 });
    expect(broken[0]?.rolled_back_at).toBeInstanceOf(Date);
    expect(broken[0]?.logs).toContain('division by zero');
  });

  it('applies a failed migration once its file is fixed, since the failure left nothing behind', async () => {
    const url = freshSchemaUrl();
    const dir = await copyOfFixture();
    await addMigration(dir, '20261123000000_broken', 'SELECT 1 / 0;');
    await expect(applyMigrations({ databaseUrl: url, migrationsDir: dir })).rejects.toThrow(/20261123000000_broken/);
    await writeFile(join(dir, '20261123000000_broken', 'migration.sql'), 'CREATE TABLE "fixed" (id int);');

    const { applied } = await applyMigrations({ databaseUrl: url, migrationsDir: dir });

    expect(applied).toEqual(['20261123000000_broken']);
  });

  it('refuses to continue after a migration that failed without being rolled back, naming it', async () => {
    const url = freshSchemaUrl();
    await applyMigrations({ databaseUrl: url, migrationsDir: fixture });
    // What Prisma's CLI leaves behind when a migration dies halfway.
    await query(
      url,
      `update "_prisma_migrations" set finished_at = null, applied_steps_count = 0, logs = 'boom' where migration_name = $1`,
      [ADD_BACK],
    );

    await expect(applyMigrations({ databaseUrl: url, migrationsDir: fixture })).rejects.toThrow(
      new RegExp(`Migration ${ADD_BACK} failed earlier`),
    );
  });

  it('treats a missing migrations folder as no migrations', async () => {
    const url = freshSchemaUrl();

    const { applied } = await applyMigrations({ databaseUrl: url, migrationsDir: join(tmpdir(), 'no-such-dir-kit') });

    expect(applied).toEqual([]);
  });
});
