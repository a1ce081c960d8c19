// Development secrets: generated once into a git-ignored folder, so sessions survive restarts of
// `npm start`. Production never uses these (NODE_ENV=production requires real secrets).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateInternalKeys } from '@engram/kit/internal-auth';
import type { StackSecrets } from './components.ts';

export async function createSecrets(): Promise<StackSecrets> {
  const keys = await generateInternalKeys();
  return {
    BETTER_AUTH_SECRET: randomBytes(32).toString('base64url'),
    INTERNAL_TOKEN_PRIVATE_KEY: keys.privateJwk,
    INTERNAL_TOKEN_PUBLIC_KEYS: keys.publicJwks,
  };
}

export async function loadOrCreateSecrets(dir: string): Promise<StackSecrets> {
  const file = join(dir, 'dev-secrets.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as StackSecrets;
  const secrets = await createSecrets();
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  return secrets;
}
