// Drafting migrations from schema.prisma and proving that migrations and schema agree, with Prisma's
// own schema engine as the judge; and the runner's bookkeeping as that engine reads it.
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPool } from '@engram/kit/db';
import { applyMigrations, readMigrations } from '@engram/kit/migrate';
import { diffMigrationsAgainstSchema, draftMigration } from '@engram/kit/migrate-draft';
import { openSchemaEngine } from '@engram/kit/migrate-engine';
import { testContext } from '@engram/testkit/context';
import { schemaUrl } from '@engram/testkit/databases';
import type { MigrationList } from '@prisma/schema-engine-wasm/schema_engine_bg';
import { afterEach, describe, expect, it } from 'vitest';

const fixture = join(import.meta.dirname, '../fixtures/prisma');

function freshSchemaUrl(): string {
  return schemaUrl(testContext().databaseUrl, `kit_draft_${randomBytes(4).toString('hex')}`);
}

const tempDirs: string[] = [];
afterEach(async () => {
  await Promise.all(tempDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function copyOfFixture(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'kit-draft-'));
  tempDirs.push(dir);
  await cp(fixture, dir, { recursive: true });
  return dir;
}

async function editSchema(prismaDir: string, edit: (schema: string) => string): Promise<void> {
  const path = join(prismaDir, 'schema.prisma');
  await writeFile(path, edit(await readFile(path, 'utf8')));
}

const addDeckColor = (schema: string) =>
  schema.replace('  name      String\n', '  name      String\n  color     String?\n');

describe('diffMigrationsAgainstSchema', () => {
  it('returns nothing when the committed migrations build exactly schema.prisma', async () => {
    expect(await diffMigrationsAgainstSchema({ prismaDir: fixture, databaseUrl: freshSchemaUrl() })).toBe('');
  });

  it('returns the missing SQL when schema.prisma changed without a migration', async () => {
    const prismaDir = await copyOfFixture();
    await editSchema(prismaDir, addDeckColor);

    const diff = await diffMigrationsAgainstSchema({ prismaDir, databaseUrl: freshSchemaUrl() });

    expect(diff).toMatch(/ALTER TABLE "decks" ADD COLUMN\s+"color" TEXT/);
  });
});

describe('draftMigration', () => {
  it('writes the migration for a schema change, which the runner applies to match the schema', async () => {
    const prismaDir = await copyOfFixture();
    await editSchema(prismaDir, addDeckColor);

    const folder = await draftMigration({ prismaDir, name: 'Add deck color' });

    expect(folder).toMatch(/^\d{14}_add_deck_color$/);
    const sql = await readFile(join(prismaDir, 'migrations', `${folder}`, 'migration.sql'), 'utf8');
    expect(sql).toMatch(/ALTER TABLE "decks" ADD COLUMN\s+"color" TEXT;/);
    expect(await readFile(join(prismaDir, 'migrations/schema.snapshot.prisma'), 'utf8')).toBe(
      await readFile(join(prismaDir, 'schema.prisma'), 'utf8'),
    );
    expect(await diffMigrationsAgainstSchema({ prismaDir, databaseUrl: freshSchemaUrl() })).toBe('');
  });

  it('leaves the database it consults untouched', async () => {
    const prismaDir = await copyOfFixture();
    await editSchema(prismaDir, addDeckColor);
    const databaseUrl = freshSchemaUrl();

    await draftMigration({ prismaDir, name: 'add deck color', databaseUrl });

    const pool = createPool(databaseUrl, { max: 1 });
    try {
      const { rows } = await pool.query(`select 1 from pg_namespace where nspname = $1`, [
        new URL(databaseUrl).searchParams.get('schema'),
      ]);
      expect(rows).toEqual([]);
    } finally {
      await pool.end();
    }
  });

  it('drafts nothing when schema.prisma has not changed since the last migration', async () => {
    const prismaDir = await copyOfFixture();
    const before = await readdir(join(prismaDir, 'migrations'));

    expect(await draftMigration({ prismaDir, name: 'noop' })).toBeNull();
    expect(await readdir(join(prismaDir, 'migrations'))).toEqual(before);
  });

  it("drafts a service's first migration without naming its schema, so any schema can run it", async () => {
    const prismaDir = await mkdtemp(join(tmpdir(), 'kit-draft-'));
    tempDirs.push(prismaDir);
    await cp(join(fixture, 'schema.prisma'), join(prismaDir, 'schema.prisma'));

    const folder = await draftMigration({ prismaDir, name: 'init' });

    const sql = await readFile(join(prismaDir, 'migrations', `${folder}`, 'migration.sql'), 'utf8');
    expect(sql).not.toMatch(/CREATE SCHEMA/);
    expect(sql).toMatch(/CREATE TABLE "decks"/);
    expect(await readFile(join(prismaDir, 'migrations/migration_lock.toml'), 'utf8')).toMatch(
      /provider = "postgresql"/,
    );
    expect(await diffMigrationsAgainstSchema({ prismaDir, databaseUrl: freshSchemaUrl() })).toBe('');
  });
});

async function migrationList(migrationsDir: string): Promise<MigrationList> {
  const migrations = await readMigrations(migrationsDir);
  return {
    baseDir: migrationsDir,
    lockfile: {
      path: 'migration_lock.toml',
      content: await readFile(join(migrationsDir, 'migration_lock.toml'), 'utf8'),
    },
    shadowDbInitScript: '',
    migrationDirectories: migrations.map(({ name, sql }) => ({
      path: name,
      migrationFile: { path: 'migration.sql', content: { tag: 'ok', value: sql } },
    })),
  };
}

const noFilters = { externalTables: [], externalEnums: [] };

async function migrationsTableShape(url: string): Promise<unknown[]> {
  const pool = createPool(url, { max: 1 });
  try {
    const { rows } = await pool.query(
      `select column_name, data_type, character_maximum_length, is_nullable, column_default
         from information_schema.columns
        where table_schema = current_schema() and table_name = '_prisma_migrations'
        order by ordinal_position`,
    );
    const { rows: keys } = await pool.query(
      `select conname, contype::text from pg_constraint where conrelid = '"_prisma_migrations"'::regclass`,
    );
    return [...rows, ...keys];
  } finally {
    await pool.end();
  }
}

describe("the runner's bookkeeping, as Prisma's schema engine reads it", () => {
  it("uses the very table Prisma's engine creates", async () => {
    const ours = freshSchemaUrl();
    const prismas = freshSchemaUrl();
    await applyMigrations({ databaseUrl: ours, migrationsDir: join(fixture, 'migrations') });
    const { engine, close } = await openSchemaEngine({ databaseUrl: prismas });
    try {
      await engine.applyMigrations({
        migrationsList: await migrationList(join(fixture, 'migrations')),
        filters: noFilters,
      });
    } finally {
      await close();
    }

    expect(await migrationsTableShape(ours)).toEqual(await migrationsTableShape(prismas));
  });

  it('shows a history Prisma accepts as complete and unedited', async () => {
    const url = freshSchemaUrl();
    await applyMigrations({ databaseUrl: url, migrationsDir: join(fixture, 'migrations') });
    const { engine, close } = await openSchemaEngine({ databaseUrl: url });
    try {
      const diagnosis = await engine.diagnoseMigrationHistory({
        migrationsList: await migrationList(join(fixture, 'migrations')),
        optInToShadowDatabase: false,
        filters: noFilters,
      });

      expect(diagnosis).toMatchObject({
        hasMigrationsTable: true,
        editedMigrationNames: [],
        failedMigrationNames: [],
        history: null,
      });
    } finally {
      await close();
    }
  });
});
