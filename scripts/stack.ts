// `npm start`: builds Engram, migrates its database, runs every service and the gateway, prints the
// URL, and stops every process on Ctrl-C. Run with --help for the options.
//
// Nothing of the workspace is imported before the build: @engram/local loads @engram/kit's dist/, which
// a fresh clone does not have yet. So this file parses the options, builds, and only then loads the
// runner (stack-run.ts).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const help = `npm start [-- options]

Builds, migrates and runs Engram (every service, the gateway and the web app) on http://localhost:3000.
Ctrl-C stops every process.

Infrastructure comes from the environment, else the local default ports:
  DATABASE_URL   PostgreSQL (default postgresql://postgres@127.0.0.1:5432/postgres; when nothing
                 answers there, an embedded PostgreSQL is started under .data/postgres)
  REDIS_URL      Redis (default redis://127.0.0.1:6379)
  NATS_URL       NATS with JetStream (default nats://127.0.0.1:4222)
  ADMIN_EMAILS   comma-separated addresses that get the admin role when they sign up
Mail is not sent: it is kept in the dev mailbox, GET http://localhost:3000/api/dev/mailbox?to=<email>,
and so are texts to phone numbers (?to=%2B5511912345678 for +5511912345678).
Engram keeps its data in the database "engram" (one schema per service). Development secrets are
generated once into .data/dev-secrets.json.

Options:
  --smoke           start everything, wait until the web app answers and every service is ready, print
                    the time it took, stop everything and exit (0 when all was well, 1 with the reason)
  --dev             also run the web app's Vite dev server with hot reload on http://localhost:5173
                    (it proxies /api to the gateway); services still run from their builds
  --no-build        skip the build (use the dist/ folders as they are)
  --log-level LVL   log level of every process (default info)
  --json            print the processes' JSON log lines as they are
  -h, --help        show this text`;

const root = join(import.meta.dirname, '..');

const { values: args } = parseArgs({
  options: {
    build: { type: 'boolean', default: true },
    'no-build': { type: 'boolean', default: false },
    'log-level': { type: 'string', default: 'info' },
    json: { type: 'boolean', default: false },
    dev: { type: 'boolean', default: false },
    smoke: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (args.help) {
  console.log(help);
  process.exit(0);
}

const startedAt = performance.now();

if (args.build && !args['no-build']) {
  console.log('[engram] building…');
  // npm_execpath is pnpm's entry when run through `pnpm run stack` (which `npm start` does).
  const pnpm = process.env.npm_execpath;
  const result = /\.[cm]?js$/.test(pnpm ?? '')
    ? spawnSync(process.execPath, [pnpm as string, 'run', 'build:all'], { cwd: root, stdio: 'inherit' })
    : spawnSync(pnpm ?? 'pnpm', ['run', 'build:all'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
} else if (!existsSync(join(root, 'packages/kit/dist'))) {
  console.error('[engram] nothing is built yet: run `npm start` without --no-build once.');
  process.exit(1);
}

const { runStack } = await import('./stack-run.ts');
await runStack({
  dev: args.dev,
  smoke: args.smoke,
  json: args.json,
  logLevel: args['log-level'] ?? 'info',
  startedAt,
});
