// Where `npm start` finds PostgreSQL: the environment, the local default port, else an embedded server
// whose data survives a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { freePort } from '../src/ports.ts';
import { ensureDatabase, resolvePostgres } from '../src/postgres.ts';

// A private folder (mode 700), like a checkout in a private directory: as root, PostgreSQL runs as the
// OS user postgres, which cannot enter it, so the data must go elsewhere and still be found again.
const dataDir = mkdtempSync(join(tmpdir(), 'engram-embedded-'));
const usedDirs = new Set<string>([dataDir]);
afterAll(() => {
  for (const dir of usedDirs) rmSync(dir, { recursive: true, force: true });
});

async function query(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

it('uses DATABASE_URL when it is set', async () => {
  const server = await resolvePostgres('postgresql://somewhere:5432/x', dataDir);
  expect(server).toMatchObject({ source: 'environment', adminUrl: 'postgresql://somewhere:5432/x' });
});

it('starts an embedded PostgreSQL when nothing answers on the local port, keeping its data', async () => {
  const local = { url: `postgresql://postgres@127.0.0.1:${await freePort()}/postgres`, embeddedPort: await freePort() };
  const first = await resolvePostgres(undefined, dataDir, local);
  try {
    expect(first.source).toBe('embedded');
    if (first.dataDir) usedDirs.add(first.dataDir);
    const url = await ensureDatabase(first.adminUrl, 'engram');
    await query(url, 'create table kept (note text); insert into kept values ($$still here$$)');
  } finally {
    await first.stop();
  }

  const second = await resolvePostgres(undefined, dataDir, local);
  try {
    const url = await ensureDatabase(second.adminUrl, 'engram');
    expect((await query(url, 'select note from kept')).rows).toEqual([{ note: 'still here' }]);
  } finally {
    await second.stop();
  }
}, 120_000);
