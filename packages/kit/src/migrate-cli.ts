#!/usr/bin/env node
// `engram-migrate`: the command behind every service's migration Job (`apply`) and the developer's
// `draft`/`check`. Only draft and check load Prisma's schema engine, a dev dependency, so `apply`
// runs in a production image that has none.
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { parseDatabaseUrl, quoteIdentifier } from './db.js';
import { createLogger } from './logger.js';
import { applyMigrations } from './migrate.js';

const LOCAL_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';

export const HELP = `Usage: engram-migrate <command> [options]

Commands:
  apply [migrationsDir]     Apply the migrations not yet applied to the schema named by DATABASE_URL
                            (postgresql://...?schema=<service>), creating the schema if missing.
                            Concurrent runs are safe. migrationsDir defaults to prisma/migrations.
  draft <name> [prismaDir]  Write prismaDir/migrations/<UTC timestamp>_<name>/migration.sql for the change
                            from migrations/schema.snapshot.prisma to schema.prisma, and update the
                            snapshot; writes nothing when they already agree. prismaDir defaults to prisma.
  check [prismaDir]         Build a throwaway schema from the migrations, compare it with schema.prisma,
                            drop it, and exit 1 printing the missing SQL when they disagree.

draft and check need a PostgreSQL server (draft only asks it for its version): the database of
DATABASE_URL, or ${LOCAL_DATABASE_URL} when DATABASE_URL is unset.
They need @engram/kit's dev dependencies; apply needs only its production dependencies.

Options:
  -h, --help                Show this text.
`;

export interface CliIo {
  env: Record<string, string | undefined>;
  out: (text: string) => void;
  err: (text: string) => void;
}

const defaultIo: CliIo = {
  env: process.env,
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
};

async function withThrowawaySchema<T>(baseUrl: string, work: (url: string) => Promise<T>): Promise<T> {
  const { connectionString } = parseDatabaseUrl(baseUrl);
  const schema = `engram_check_${randomBytes(4).toString('hex')}`;
  const url = new URL(connectionString);
  url.searchParams.set('schema', schema);
  try {
    return await work(url.toString());
  } finally {
    const client = new pg.Client({ connectionString });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${quoteIdentifier(schema)} CASCADE`).finally(() => client.end());
  }
}

/** Runs one command; returns the process exit code. */
export async function runCli(argv: string[], io: CliIo = defaultIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { help: { type: 'boolean', short: 'h' } },
  });
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    (values.help ? io.out : io.err)(HELP);
    return values.help ? 0 : 2;
  }
  const serverUrl = io.env.DATABASE_URL || LOCAL_DATABASE_URL;

  switch (command) {
    case 'apply': {
      const databaseUrl = io.env.DATABASE_URL;
      if (!databaseUrl) {
        io.err('engram-migrate apply: DATABASE_URL is not set');
        return 2;
      }
      const logger = createLogger({ service: 'engram-migrate', level: io.env.LOG_LEVEL ?? 'info' });
      await applyMigrations({ databaseUrl, migrationsDir: rest[0] ?? 'prisma/migrations', logger });
      return 0;
    }
    case 'draft': {
      const [name, prismaDir = 'prisma'] = rest;
      if (!name) {
        io.err('engram-migrate draft: a migration name is required\n');
        io.err(HELP);
        return 2;
      }
      const { draftMigration } = await import('./migrate-draft.js');
      const folder = await draftMigration({ prismaDir, name, databaseUrl: serverUrl });
      io.out(
        folder
          ? `Drafted ${prismaDir}/migrations/${folder}/migration.sql`
          : 'Nothing to change: schema.prisma matches the snapshot.',
      );
      return 0;
    }
    case 'check': {
      const prismaDir = rest[0] ?? 'prisma';
      const { diffMigrationsAgainstSchema } = await import('./migrate-draft.js');
      const diff = await withThrowawaySchema(serverUrl, (databaseUrl) =>
        diffMigrationsAgainstSchema({ prismaDir, databaseUrl }),
      );
      if (!diff) {
        io.out(`The migrations in ${prismaDir}/migrations build exactly ${prismaDir}/schema.prisma.`);
        return 0;
      }
      io.err(`${prismaDir}/schema.prisma differs from what its migrations build. Missing SQL:\n\n${diff}`);
      io.err('Run `engram-migrate draft <name>` to add a migration for it.');
      return 1;
    }
    default:
      io.err(`engram-migrate: unknown command "${command}"\n`);
      io.err(HELP);
      return 2;
  }
}

if (import.meta.main) {
  runCli(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`engram-migrate: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
