// `npm start`'s development secrets (.data/dev-secrets.json): made once per installation and kept, the S3
// stand-in's credentials among them; a file from before the stand-in had its own gets a pair of its own,
// keeping every secret it held (so nobody is signed out by the upgrade).
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOrCreateSecrets } from '@engram/local/secrets';
import { afterEach, describe, expect, it } from 'vitest';

let dir: string;
afterEach(() => rm(dir, { recursive: true, force: true }));

const fileIn = (folder: string) => join(folder, 'dev-secrets.json');

describe('development secrets', () => {
  it('are made once per installation, the S3 stand-in pair included, and kept across starts', async () => {
    dir = await mkdtemp(join(tmpdir(), 'engram-secrets-'));
    const first = await loadOrCreateSecrets(dir);
    expect(first.MEDIA_STANDIN_ACCESS_KEY_ID).toMatch(/^[A-Z0-9]{20}$/);
    expect(first.MEDIA_STANDIN_SECRET_ACCESS_KEY).toHaveLength(40);
    expect(await loadOrCreateSecrets(dir)).toEqual(first);
    expect((await stat(fileIn(dir))).mode & 0o777).toBe(0o600);

    const elsewhere = await mkdtemp(join(tmpdir(), 'engram-secrets-'));
    try {
      const other = await loadOrCreateSecrets(elsewhere);
      expect(other.MEDIA_STANDIN_ACCESS_KEY_ID).not.toBe(first.MEDIA_STANDIN_ACCESS_KEY_ID);
      expect(other.MEDIA_STANDIN_SECRET_ACCESS_KEY).not.toBe(first.MEDIA_STANDIN_SECRET_ACCESS_KEY);
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });

  it('give an installation from before the stand-in had credentials a pair, keeping its other secrets', async () => {
    dir = await mkdtemp(join(tmpdir(), 'engram-secrets-'));
    const older = {
      BETTER_AUTH_SECRET: 'kept-auth-secret',
      INTERNAL_TOKEN_PRIVATE_KEY: 'kept-private-key',
      INTERNAL_TOKEN_PUBLIC_KEYS: 'kept-public-keys',
    };
    await writeFile(fileIn(dir), JSON.stringify(older), { mode: 0o600 });
    const upgraded = await loadOrCreateSecrets(dir);
    expect(upgraded).toMatchObject(older);
    expect(upgraded.MEDIA_STANDIN_ACCESS_KEY_ID).toMatch(/^[A-Z0-9]{20}$/);
    expect(JSON.parse(await readFile(fileIn(dir), 'utf8'))).toEqual(upgraded);
    expect(await loadOrCreateSecrets(dir)).toEqual(upgraded);
  });
});
