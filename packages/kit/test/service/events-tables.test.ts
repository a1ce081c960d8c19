// The SQL services paste into their first migration and the Prisma models they paste into schema.prisma
// describe the same tables, judged by Prisma's own schema engine.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVENTS_PRISMA_MODELS, EVENTS_TABLES_SQL } from '@engram/kit/events/tables';
import { diffMigrationsAgainstSchema } from '@engram/kit/migrate-draft';
import { testContext } from '@engram/testkit/context';
import { schemaUrl } from '@engram/testkit/databases';
import { afterEach, expect, it } from 'vitest';

const SCHEMA_HEADER = `
generator client {
  provider        = "prisma-client"
  output          = "../src/generated/prisma"
  previewFeatures = ["partialIndexes"]
}

datasource db {
  provider = "postgresql"
}
`;

let prismaDir: string | undefined;
afterEach(async () => {
  if (prismaDir) await rm(prismaDir, { recursive: true, force: true });
});

it('gives Prisma models that match the events tables SQL exactly', async () => {
  prismaDir = await mkdtemp(join(tmpdir(), 'kit-events-tables-'));
  await writeFile(join(prismaDir, 'schema.prisma'), SCHEMA_HEADER + EVENTS_PRISMA_MODELS);
  await mkdir(join(prismaDir, 'migrations/20260101000000_events'), { recursive: true });
  await writeFile(join(prismaDir, 'migrations/20260101000000_events/migration.sql'), EVENTS_TABLES_SQL);
  await writeFile(join(prismaDir, 'migrations/migration_lock.toml'), 'provider = "postgresql"\n');
  const databaseUrl = schemaUrl(testContext().databaseUrl, `events_tables_${randomBytes(4).toString('hex')}`);

  expect(await diffMigrationsAgainstSchema({ prismaDir, databaseUrl })).toBe('');
});
