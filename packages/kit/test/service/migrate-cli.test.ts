// engram-migrate as a developer and a migration Job use it: exit codes and what it prints.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPool } from '@engram/kit/db';
import { type CliIo, HELP, runCli } from '@engram/kit/migrate-cli';
import { testContext } from '@engram/testkit/context';
import { afterEach, describe, expect, it } from 'vitest';

const fixture = join(import.meta.dirname, '../fixtures/prisma');

function captureIo(): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    env: { DATABASE_URL: testContext().databaseUrl },
    out: (text) => stdout.push(text),
    err: (text) => stderr.push(text),
    stdout,
    stderr,
  };
}

async function checkSchemas(): Promise<string[]> {
  const pool = createPool(testContext().databaseUrl, { max: 1 });
  try {
    const { rows } = await pool.query<{ nspname: string }>(
      `select nspname from pg_namespace where nspname like 'engram_check_%'`,
    );
    return rows.map((row) => row.nspname);
  } finally {
    await pool.end();
  }
}

const tempDirs: string[] = [];
afterEach(async () => {
  await Promise.all(tempDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('engram-migrate', () => {
  it('prints its help with --help and exits 0', async () => {
    const io = captureIo();

    expect(await runCli(['--help'], io)).toBe(0);
    expect(io.stdout).toEqual([HELP]);
  });

  it('check exits 0 when the migrations build schema.prisma, leaving no schema behind', async () => {
    const io = captureIo();

    expect(await runCli(['check', fixture], io)).toBe(0);
    expect(io.stdout.join('\n')).toMatch(/build exactly/);
    expect(await checkSchemas()).toEqual([]);
  });

  it('check exits 1 with the missing SQL when schema.prisma changed without a migration', async () => {
    const prismaDir = await mkdtemp(join(tmpdir(), 'kit-cli-'));
    tempDirs.push(prismaDir);
    await cp(fixture, prismaDir, { recursive: true });
    const schemaPath = join(prismaDir, 'schema.prisma');
    await writeFile(
      schemaPath,
      (await readFile(schemaPath, 'utf8')).replace('  front  String\n', '  front  String\n  hint   String?\n'),
    );
    const io = captureIo();

    expect(await runCli(['check', prismaDir], io)).toBe(1);
    expect(io.stderr.join('\n')).toMatch(/ALTER TABLE "cards" ADD COLUMN\s+"hint" TEXT/);
    expect(await checkSchemas()).toEqual([]);
  });

  it('apply refuses to run without DATABASE_URL', async () => {
    const io = { ...captureIo(), env: {} };

    expect(await runCli(['apply', join(fixture, 'migrations')], io)).toBe(2);
  });

  it('rejects an unknown command with the help text', async () => {
    const io = captureIo();

    expect(await runCli(['migrate'], io)).toBe(2);
    expect(io.stderr.join('\n')).toContain(HELP);
  });
});
