// Development secrets: generated once into a git-ignored folder, so sessions survive restarts of
// `npm start`. Production never uses these (NODE_ENV=production requires real secrets). A file written
// before a secret was added gets that secret generated and written beside the ones it keeps.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateInternalKeys } from '@engram/kit/internal-auth';
import { generateStandInCredentials } from '@engram/kit/storage/stand-in-credentials';
import type { StackSecrets } from './components.ts';

export async function createSecrets(): Promise<StackSecrets> {
  const keys = await generateInternalKeys();
  const standIn = generateStandInCredentials();
  return {
    BETTER_AUTH_SECRET: randomBytes(32).toString('base64url'),
    INTERNAL_TOKEN_PRIVATE_KEY: keys.privateJwk,
    INTERNAL_TOKEN_PUBLIC_KEYS: keys.publicJwks,
    MEDIA_STANDIN_ACCESS_KEY_ID: standIn.accessKeyId,
    MEDIA_STANDIN_SECRET_ACCESS_KEY: standIn.secretAccessKey,
  };
}

export async function loadOrCreateSecrets(dir: string): Promise<StackSecrets> {
  const file = join(dir, 'dev-secrets.json');
  const kept = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<StackSecrets>) : {};
  const fresh = await createSecrets();
  const secrets = { ...fresh, ...kept } as StackSecrets;
  // The S3 stand-in's pair is one: a file holding half of it gets a new whole.
  if (!kept.MEDIA_STANDIN_ACCESS_KEY_ID || !kept.MEDIA_STANDIN_SECRET_ACCESS_KEY) {
    secrets.MEDIA_STANDIN_ACCESS_KEY_ID = fresh.MEDIA_STANDIN_ACCESS_KEY_ID;
    secrets.MEDIA_STANDIN_SECRET_ACCESS_KEY = fresh.MEDIA_STANDIN_SECRET_ACCESS_KEY;
  }
  if (Object.keys(fresh).some((name) => !(name in kept))) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  }
  return secrets;
}
