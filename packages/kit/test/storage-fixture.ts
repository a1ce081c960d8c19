// What every storage test arranges: an object store on the S3 stand-in, on a free port, with its files in
// a temporary directory of its own that is removed afterwards.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig, vars } from '@engram/kit/config';
import { createObjectStore, type ObjectStore, storageSettingsOf, storageVars } from '@engram/kit/storage';
import { generateStandInCredentials } from '@engram/kit/storage/stand-in-credentials';
import { openS3StandIn } from '@engram/stand-ins/s3';

export const APP_ORIGIN = 'http://localhost:3000';

const shape = { NODE_ENV: vars.nodeEnv, ...storageVars };

/** This test run's stand-in credentials, as npm start makes an installation's. */
export const CREDENTIALS = generateStandInCredentials();
export const CREDENTIALS_ENV = {
  MEDIA_STANDIN_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
  MEDIA_STANDIN_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
};

/** The storage settings a service would read from exactly `env`. */
export const settingsFromOnly = (env: Record<string, string>) =>
  storageSettingsOf('kit-test', parseConfig('kit-test', shape, { NODE_ENV: 'test', ...env }));

/** The storage settings a service would read from `env`, with this run's stand-in credentials unless it names others. */
export const settingsFrom = (env: Record<string, string>) => settingsFromOnly({ ...CREDENTIALS_ENV, ...env });

export interface StoreFixture {
  store: ObjectStore;
  dir: string;
  dispose(): Promise<void>;
}

export async function standInStore(env: Record<string, string> = {}): Promise<StoreFixture> {
  const dir = await mkdtemp(join(tmpdir(), 'engram-s3-test-'));
  const store = await createObjectStore(
    settingsFrom({
      MEDIA_STANDIN_DIR: dir,
      MEDIA_STANDIN_PORT: '0',
      MEDIA_STANDIN_ALLOWED_ORIGINS: APP_ORIGIN,
      ...env,
    }),
    { nodeEnv: 'test', openStandIn: openS3StandIn },
  );
  return {
    store,
    dir,
    async dispose() {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The whole of a stream, for small test objects. */
export async function bytesOf(body: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}
