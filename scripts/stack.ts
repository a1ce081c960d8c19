// `npm start`: builds Engram, migrates its database, runs every service and the gateway, prints the
// URL, and stops every process on Ctrl-C. Run with --help for the options.
import { spawn, spawnSync } from 'node:child_process';
import { Socket } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_PORTS, repoRoot } from '@engram/local/components';
import { migrateAll } from '@engram/local/migrations';
import { ensureDatabase, resolvePostgres } from '@engram/local/postgres';
import { startProcesses } from '@engram/local/processes';
import { loadOrCreateSecrets } from '@engram/local/secrets';

const help = `npm start [-- options]

Builds, migrates and runs Engram (every service, the gateway and the web app) on http://localhost:3000.
Ctrl-C stops every process.

Infrastructure comes from the environment, else the local default ports:
  DATABASE_URL   PostgreSQL (default postgresql://postgres@127.0.0.1:5432/postgres; when nothing
                 answers there, an embedded PostgreSQL is started under .data/postgres)
  REDIS_URL      Redis (default redis://127.0.0.1:6379)
  NATS_URL       NATS with JetStream (default nats://127.0.0.1:4222)
Engram keeps its data in the database "engram" (one schema per service). Development secrets are
generated once into .data/dev-secrets.json.

Options:
  --dev             also run the web app's Vite dev server with hot reload on http://localhost:5173
                    (it proxies /api to the gateway); services still run from their builds
  --no-build        skip the build (use the dist/ folders as they are)
  --log-level LVL   log level of every process (default info)
  --json            print the processes' JSON log lines as they are
  -h, --help        show this text`;

const { values: args } = parseArgs({
  options: {
    build: { type: 'boolean', default: true },
    'no-build': { type: 'boolean', default: false },
    'log-level': { type: 'string', default: 'info' },
    json: { type: 'boolean', default: false },
    dev: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (args.help) {
  console.log(help);
  process.exit(0);
}

const say = (line: string) => console.log(`[engram] ${line}`);
const VITE_URL = 'http://localhost:5173';

function reachable(url: string, defaultPort: number): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.setTimeout(1_000, () => resolve(false));
    socket.once('error', () => resolve(false));
    socket.connect(Number(port) || defaultPort, hostname, () => {
      socket.destroy();
      resolve(true);
    });
  });
}

function formatLine(component: string, line: string): string {
  if (args.json) return `[${component}] ${line}`;
  try {
    const entry = JSON.parse(line) as { level?: string; msg?: string; time?: string; err?: { message?: string } };
    const time = entry.time?.slice(11, 19) ?? '';
    const detail = entry.err?.message ? ` (${entry.err.message})` : '';
    return `${time} ${(entry.level ?? '').padEnd(5)} [${component}] ${entry.msg ?? line}${detail}`;
  } catch {
    return `[${component}] ${line}`;
  }
}

if (args.build && !args['no-build']) {
  say('building…');
  const pnpm = process.env.npm_execpath;
  const result =
    pnpm?.endsWith('.js') || pnpm?.endsWith('.cjs') || pnpm?.endsWith('.mjs')
      ? spawnSync(process.execPath, [pnpm, 'run', 'build:all'], { cwd: repoRoot, stdio: 'inherit' })
      : spawnSync(pnpm ?? 'pnpm', ['run', 'build:all'], { cwd: repoRoot, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const natsUrl = process.env.NATS_URL || 'nats://127.0.0.1:4222';
if (!(await reachable(natsUrl, 4222))) {
  console.error(
    `[engram] NATS is not reachable at ${natsUrl}: start nats-server with JetStream (-js) or set NATS_URL.`,
  );
  process.exit(1);
}

const dataDir = join(repoRoot, '.data');
const postgres = await resolvePostgres(process.env.DATABASE_URL, dataDir);
say(`PostgreSQL: ${postgres.source}`);
const databaseUrl = await ensureDatabase(postgres.adminUrl, 'engram');
await migrateAll(databaseUrl, (line) => say(`migrations: ${line}`)).catch(async (error: unknown) => {
  console.error(`[engram] migrations failed: ${(error as Error).message}`);
  await postgres.stop();
  process.exit(1);
});

const stack = await startProcesses(
  {
    databaseUrl,
    redisUrl,
    natsUrl,
    ports: DEFAULT_PORTS,
    secrets: await loadOrCreateSecrets(dataDir),
    publicBaseUrl: `http://localhost:${DEFAULT_PORTS.gateway}`,
    extraTrustedOrigins: args.dev ? [VITE_URL] : [],
    streamName: 'ENGRAM',
    subjectPrefix: '',
    logLevel: args['log-level'] ?? 'info',
  },
  (component, line) => console.log(formatLine(component, line)),
).catch(async (error: unknown) => {
  console.error(`[engram] could not start: ${(error as Error).message}`);
  await postgres.stop();
  process.exit(1);
});

const vite = args.dev
  ? spawn(process.execPath, [join(repoRoot, 'web/node_modules/vite/bin/vite.js'), '--port', '5173', '--strictPort'], {
      cwd: join(repoRoot, 'web'),
      env: { ...process.env, ENGRAM_GATEWAY_URL: stack.url },
      stdio: 'inherit',
    })
  : undefined;

say(`Engram is running at ${stack.url} — press Ctrl-C to stop.`);
if (vite) say(`The web app with hot reload: ${VITE_URL}`);

let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  say('stopping…');
  vite?.kill('SIGTERM');
  await stack.stop();
  await postgres.stop();
  say('stopped.');
  process.exit(0);
};
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
