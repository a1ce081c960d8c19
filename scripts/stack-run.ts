// The running half of `npm start` (scripts/stack.ts builds first, then loads this): resolves the
// infrastructure, migrates, starts every process, and either keeps them running until Ctrl-C or, with
// --smoke, checks that the app answers and stops again.
import { spawn } from 'node:child_process';
import { Socket } from 'node:net';
import { join } from 'node:path';
import { DEFAULT_PORTS, repoRoot } from '@engram/local/components';
import { migrateAll } from '@engram/local/migrations';
import { ensureDatabase, resolvePostgres } from '@engram/local/postgres';
import { type RunningStack, startProcesses } from '@engram/local/processes';
import { loadOrCreateSecrets } from '@engram/local/secrets';
import { smokeCheck } from '@engram/local/smoke';
import { describeEvent } from '@engram/local/supervisor';

export interface StackOptions {
  dev: boolean;
  smoke: boolean;
  json: boolean;
  logLevel: string;
  /** performance.now() when `npm start` began, for the smoke run's timing. */
  startedAt: number;
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

function formatter(json: boolean) {
  return (component: string, line: string): string => {
    if (json) return `[${component}] ${line}`;
    try {
      const entry = JSON.parse(line) as { level?: string; msg?: string; time?: string; err?: { message?: string } };
      const time = entry.time?.slice(11, 19) ?? '';
      const detail = entry.err?.message ? ` (${entry.err.message})` : '';
      return `${time} ${(entry.level ?? '').padEnd(5)} [${component}] ${entry.msg ?? line}${detail}`;
    } catch {
      return `[${component}] ${line}`;
    }
  };
}

function fail(message: string): never {
  console.error(`[engram] ${message}`);
  process.exit(1);
}

export async function runStack(options: StackOptions): Promise<void> {
  const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  const natsUrl = process.env.NATS_URL || 'nats://127.0.0.1:4222';
  if (!(await reachable(redisUrl, 6379))) {
    fail(`Redis is not reachable at ${redisUrl}: start redis-server or set REDIS_URL.`);
  }
  if (!(await reachable(natsUrl, 4222))) {
    fail(`NATS is not reachable at ${natsUrl}: start nats-server with JetStream (-js) or set NATS_URL.`);
  }

  const dataDir = join(repoRoot, '.data');
  const postgres = await resolvePostgres(process.env.DATABASE_URL, dataDir);
  say(`PostgreSQL: ${postgres.source}`);
  const databaseUrl = await ensureDatabase(postgres.adminUrl, 'engram');
  await migrateAll(databaseUrl, (line) => say(`migrations: ${line}`)).catch(async (error: unknown) => {
    await postgres.stop();
    fail(`migrations failed: ${(error as Error).message}`);
  });

  const format = formatter(options.json);
  let stack: RunningStack;
  try {
    stack = await startProcesses(
      {
        databaseUrl,
        redisUrl,
        natsUrl,
        ports: DEFAULT_PORTS,
        secrets: await loadOrCreateSecrets(dataDir),
        publicBaseUrl: `http://localhost:${DEFAULT_PORTS.gateway}`,
        extraTrustedOrigins: options.dev ? [VITE_URL] : [],
        streamName: 'ENGRAM',
        subjectPrefix: '',
        logLevel: options.logLevel,
        stripeStandInStateFile: join(dataDir, 'stripe-stand-in.json'),
        mediaStandInDir: join(dataDir, 'media'),
        // Real Stripe keys and prices, or an S3 bucket, when the developer has them, replace the stand-ins.
        extraEnv: Object.fromEntries(
          Object.entries(process.env).filter(
            (entry): entry is [string, string] => /^(STRIPE|BILLING|MEDIA)_/.test(entry[0]) && entry[1] !== undefined,
          ),
        ),
        ...(process.env.ADMIN_EMAILS && { adminEmails: process.env.ADMIN_EMAILS }),
      },
      (component, line) => console.log(format(component, line)),
      {
        onEvent: (event) =>
          event.kind === 'restarted' ? say(describeEvent(event)) : console.error(`[engram] ${describeEvent(event)}`),
      },
    );
  } catch (error) {
    await postgres.stop();
    fail(`could not start: ${(error as Error).message}`);
  }

  if (options.smoke) {
    const problem = await smokeCheck(stack.url).then(
      () => undefined,
      (error: unknown) => (error as Error).message,
    );
    const seconds = ((performance.now() - options.startedAt) / 1000).toFixed(1);
    await stack.stop();
    await postgres.stop();
    if (problem) fail(`smoke: FAILED after ${seconds} s: ${problem}`);
    say(`smoke: every service ready and ${stack.url} answering, ${seconds} s from start; stopped.`);
    process.exit(0);
  }

  const vite = options.dev
    ? spawn(process.execPath, [join(repoRoot, 'web/node_modules/vite/bin/vite.js'), '--port', '5173', '--strictPort'], {
        cwd: join(repoRoot, 'web'),
        env: { ...process.env, ENGRAM_GATEWAY_URL: stack.url },
        stdio: 'inherit',
      })
    : undefined;

  say(`Engram is running at ${stack.url} — press Ctrl-C to stop.`);
  if (vite) say(`The web app with hot reload: ${VITE_URL}`);

  let stopping = false;
  // A component that keeps failing stops the whole run: better a loud exit than an app half up.
  void stack.gaveUp.then(async (reason) => {
    if (stopping) return;
    stopping = true;
    vite?.kill('SIGTERM');
    await postgres.stop();
    fail(`stopped: ${reason}`);
  });
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
}
