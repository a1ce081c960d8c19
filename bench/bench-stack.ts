// The whole Engram stack for a benchmark: a throwaway database (migrated), every process on free ports,
// and learners signed up through the gateway as a browser would (verified through the dev mailbox).
// Removed again afterwards.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_KEY_HEADER } from '@engram/contracts/auth-features';
import { serviceDatabaseUrl } from '@engram/local/components';
import { migrateAll } from '@engram/local/migrations';
import { freePorts } from '@engram/local/ports';
import { ensureDatabase } from '@engram/local/postgres';
import { startProcesses } from '@engram/local/processes';
import { createSecrets } from '@engram/local/secrets';
import { describeEvent } from '@engram/local/supervisor';
import { cookieFrom, linkIn, nextMail } from '@engram/testkit/mailbox';
import pg from 'pg';
import { type GcPause, gcPausesOf } from './gc-pauses.ts';

export interface BenchStack {
  url: string;
  /** The cards schema's URL, for seeding and for the raw-SQL baselines. */
  cardsDatabaseUrl: string;
  /** The process id of each component. */
  pids: Record<string, number | undefined>;
  /** The garbage-collection pauses each component began between two Date.now() readings. */
  gcPauses(from: number, to: number): Record<string, GcPause[]>;
  signUp(name: string): Promise<{ cookie: string; userId: string }>;
  /**
   * A new API key (read and write) of the learner signed in with `cookie`, made as on the API keys page, with its
   * rate limit (600 requests a minute) lifted in identity's schema as an operator would: a benchmark sends more.
   */
  apiKey(cookie: string): Promise<string>;
  stop(): Promise<void>;
}

export async function startBenchStack(adminUrl: string, extraEnv: Record<string, string> = {}): Promise<BenchStack> {
  const name = `engram_bench_${randomBytes(4).toString('hex')}`;
  const databaseUrl = await ensureDatabase(adminUrl, name);
  await migrateAll(databaseUrl);
  const ports = await freePorts();
  const url = `http://localhost:${ports.gateway}`;
  const suffix = randomBytes(3).toString('hex');
  // Every process notes its garbage-collection pauses here (gc-pauses.ts).
  const gcDir = mkdtempSync(join(tmpdir(), 'engram-bench-gc-'));
  const nodeOptions = [`--import=${new URL('./gc-pauses.ts', import.meta.url).href}`, process.env.BENCH_NODE_OPTIONS];
  const stack = await startProcesses(
    {
      databaseUrl,
      redisUrl: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
      natsUrl: process.env.NATS_URL || 'nats://127.0.0.1:4222',
      ports,
      secrets: await createSecrets(),
      publicBaseUrl: url,
      streamName: `ENGRAM_BENCH_${suffix.toUpperCase()}`,
      subjectPrefix: `bench_${suffix}.`,
      redisKeyPrefix: `bench_${suffix}:`,
      logLevel: 'warn',
      // BENCH_NODE_OPTIONS (for example `--cpu-prof --cpu-prof-dir=/tmp/prof`) reaches every process of the stack.
      extraEnv: {
        NODE_OPTIONS: nodeOptions.filter(Boolean).join(' '),
        ENGRAM_BENCH_GC_DIR: gcDir,
        ...extraEnv,
      },
    },
    () => {},
    // A process restarted mid-run makes the numbers meaningless: say so next to them.
    { onEvent: (event) => console.error(`[bench] ${describeEvent(event)}`) },
  );
  return {
    url,
    cardsDatabaseUrl: serviceDatabaseUrl(databaseUrl, 'cards'),
    pids: stack.pids(),
    gcPauses(from, to) {
      return Object.fromEntries(
        Object.entries(stack.pids()).map(([component, pid]) => [
          component,
          pid === undefined ? [] : gcPausesOf(gcDir, pid, from, to),
        ]),
      );
    },
    async signUp(label) {
      const email = `${label}-${randomBytes(4).toString('hex')}@bench.example`;
      const signedUp = await politely(() =>
        fetch(`${url}/api/auth/sign-up/email`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: url },
          body: JSON.stringify({ email, password: 'bench password', name: label }),
        }),
      );
      const { user } = (await signedUp.json()) as { user: { id: string } };
      // As a learner does: the verification link from the (dev) mailbox signs them in.
      const link = linkIn(await nextMail(url, email, /^Verify your email/));
      const verified = await politely(() => fetch(link, { redirect: 'manual' }));
      return { cookie: cookieFrom(verified), userId: user.id };
    },
    async apiKey(cookie) {
      const created = await politely(() =>
        fetch(`${url}/api/auth/api-key/create`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: url, cookie },
          body: JSON.stringify({ name: 'bench' }),
        }),
      );
      const { key, id } = (await created.json()) as { key: string; id: string };
      const identity = new pg.Client({ connectionString: databaseUrl });
      await identity.connect();
      try {
        await identity.query('UPDATE identity.api_keys SET rate_limit_enabled = false WHERE id = $1', [id]);
      } finally {
        await identity.end();
      }
      return key;
    },
    async stop() {
      await stack.stop();
      rmSync(gcDir, { recursive: true, force: true });
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

/** Sends `request` again while identity's rate limit asks to wait; fails on any other refusal. */
async function politely(request: () => Promise<Response>): Promise<Response> {
  for (;;) {
    const response = await request();
    if (response.status === 429) {
      await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after') ?? 1) * 1000));
      continue;
    }
    if (response.status >= 400) throw new Error(`${response.url}: ${response.status} ${await response.text()}`);
    return response;
  }
}

// The load generator's HTTP client: node:http with kept-alive connections. It costs the measured
// processes nothing, but it shares their two cores, and fetch (undici) spent about twice the CPU per
// request here.
// The timeout matters only for idle sockets: with one set, the agent follows the server's `Keep-Alive:
// timeout=5` and drops an idle socket a second before the server would close it, so a request is never
// sent on a connection the server is closing (without one, Node ignores the hint: a failed request now
// and then, which the proof's promise of no failed request would count).
const agent = new http.Agent({ keepAlive: true, maxSockets: 64, timeout: 60_000 });

export function request(url: string, method: string, headers: Record<string, string>, body?: string, timeoutMs = 0) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const outgoing = http.request(url, { method, headers, agent, timeout: timeoutMs }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    outgoing.end(body);
  });
}

/** A tRPC call as the web app makes it. */
export function trpc(url: string, cookie: string, path: string, input?: unknown, method: 'GET' | 'POST' = 'GET') {
  return trpcWith(url, { 'content-type': 'application/json', origin: url, cookie }, path, input, method);
}

/** A tRPC call as a script makes it: an API key in header x-api-key, no cookie, no origin. */
export function trpcByKey(url: string, key: string, path: string, input?: unknown, method: 'GET' | 'POST' = 'GET') {
  return trpcWith(url, { 'content-type': 'application/json', [API_KEY_HEADER]: key }, path, input, method);
}

async function trpcWith(
  url: string,
  headers: Record<string, string>,
  path: string,
  input: unknown,
  method: 'GET' | 'POST',
) {
  const query = method === 'GET' && input !== undefined ? `?input=${encodeURIComponent(JSON.stringify(input))}` : '';
  const { status, text } = await request(
    `${url}/api/trpc/${path}${query}`,
    method,
    headers,
    method === 'POST' ? JSON.stringify(input) : undefined,
  );
  if (status < 200 || status >= 300) throw new Error(`${path}: ${status} ${text}`);
  return JSON.parse(text) as unknown;
}
