// The whole Engram stack for an end-to-end test: a fresh database and event namespace, every service
// and the gateway as real processes on free ports, and their log lines kept for assertions.
import { randomBytes } from 'node:crypto';
import type { ComponentName, StackSettings } from '@engram/local/components';
import { freePort, freePorts } from '@engram/local/ports';
import { type RunningStack, startGatewayReplica, startProcesses } from '@engram/local/processes';
import { createSecrets } from '@engram/local/secrets';
import type { RestartPolicy, SupervisorEvent } from '@engram/local/supervisor';
import { testContext } from './context.ts';
import { createDatabase, createDatabaseFrom, dropDatabase } from './databases.ts';
import { cookieFrom, linkIn, nextMail } from './mailbox.ts';

export interface LogLine {
  component: ComponentName;
  line: string;
  /** The parsed JSON log entry, when the line is one. */
  entry: Record<string, unknown> | undefined;
}

export interface TestStack extends RunningStack {
  databaseUrl: string;
  logs: LogLine[];
  /** What the runner's supervisor reported: exits nobody asked for, restarts, giving up. */
  supervision: SupervisorEvent[];
  stop(): Promise<void>;
}

function parse(line: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(line) as unknown;
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export interface FreshStackSettings {
  settings: StackSettings;
  /** Drops the database the settings name. */
  dropDatabase(): Promise<void>;
}

/**
 * The most connections any one pool of a test stack's services holds. A stack opens a dozen pools (each service's
 * own, its events', cards' jobs); at pg's default of 10 each, the two workers' shared stacks and a file's own stack
 * beside them reached PostgreSQL's 100 connections on a loaded machine, and calls were refused "too many clients"
 * (the proof runs on a PostgreSQL of its own). A busier pool makes its queries wait for a connection instead.
 */
export const TEST_CONNECTION_LIMIT = 4;

const withConnectionLimit = (url: string) => {
  const limited = new URL(url);
  limited.searchParams.set('connection_limit', String(TEST_CONNECTION_LIMIT));
  return limited.toString();
};

/**
 * What one test stack runs against: a fresh database (migrated when `migrated`, a copy of the run's migrated
 * template; empty otherwise), free ports, new secrets, and a stream and subject prefix of its own within the
 * run's. `label` tells apart the databases of different users.
 */
export async function freshStackSettings(
  options: { label?: string; logLevel?: string; extraEnv?: Record<string, string>; migrated?: boolean } = {},
): Promise<FreshStackSettings> {
  const ctx = testContext();
  const suffix = `${options.label ?? ''}${randomBytes(3).toString('hex')}`;
  const adminUrl = ctx.databaseUrl;
  const databaseName = `${new URL(adminUrl).pathname.slice(1)}_${suffix}`;
  const databaseUrl = options.migrated
    ? await createDatabaseFrom(adminUrl, databaseName, ctx.migratedTemplate)
    : await createDatabase(adminUrl, databaseName);
  const ports = await freePorts();
  return {
    settings: {
      databaseUrl: withConnectionLimit(databaseUrl),
      redisUrl: ctx.redisUrl,
      natsUrl: ctx.natsUrl,
      ports,
      secrets: await createSecrets(),
      publicBaseUrl: `http://localhost:${ports.gateway}`,
      streamName: `${ctx.streamName}_${suffix.toUpperCase()}`,
      subjectPrefix: `${ctx.subjectPrefix}${suffix}.`,
      redisKeyPrefix: `${ctx.subjectPrefix}${suffix}:`,
      logLevel: options.logLevel ?? 'info',
      // A test stack asks nothing of the world outside this machine: avatars show initials, not Gravatars.
      extraEnv: { GRAVATAR_URL: 'off', ...options.extraEnv },
    },
    dropDatabase: () => dropDatabase(adminUrl, databaseName),
  };
}

export async function startTestStack(
  options: { logLevel?: string; extraEnv?: Record<string, string>; restartPolicy?: Partial<RestartPolicy> } = {},
): Promise<TestStack> {
  const fresh = await freshStackSettings({ ...options, migrated: true });
  const { databaseUrl } = fresh.settings;
  const logs: LogLine[] = [];
  const supervision: SupervisorEvent[] = [];
  const running = await startProcesses(
    fresh.settings,
    (component, line) => {
      logs.push({ component, line, entry: parse(line) });
      if (process.env.ENGRAM_TEST_LOGS) console.log(`[${component}] ${line}`);
    },
    {
      onEvent: (event) => supervision.push(event),
      ...(options.restartPolicy && { restartPolicy: options.restartPolicy }),
    },
  );
  return {
    ...running,
    databaseUrl,
    logs,
    supervision,
    async stop() {
      await running.stop();
      await fresh.dropDatabase();
    },
  };
}

/**
 * A second gateway of `stack` on free ports (same services, Redis and key prefix), as a second pod would
 * be; `extraEnv` changes its configuration (e.g. TRUSTED_PROXIES).
 */
export async function startSecondGateway(stack: TestStack, extraEnv: Record<string, string> = {}) {
  const ports = { http: await freePort(), metrics: await freePort() };
  const settings = { ...stack.settings, extraEnv: { ...stack.settings.extraEnv, ...extraEnv } };
  return startGatewayReplica(settings, ports, (component, line) => {
    stack.logs.push({ component, line, entry: parse(line) });
  });
}

/** The password the sign-up helpers give every user. */
export const TEST_PASSWORD = 'long enough pw';

/**
 * Signs a new user up through the gateway at `url` as a person does (sign up, open the verification mail
 * in the dev mailbox, follow its link, which signs them in) and returns the Cookie header that carries
 * the session. `email` defaults to a unique address made from `name`.
 */
export async function signUpThroughGateway(url: string, name: string, email?: string): Promise<string> {
  const address = email ?? `${name}-${randomBytes(4).toString('hex')}@example.com`;
  const response = await fetch(`${url}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ email: address, password: TEST_PASSWORD, name }),
  });
  if (response.status !== 200) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  return verifyEmailThroughGateway(url, address);
}

/** Follows the newest verification link mailed to `email`; returns the Cookie header of the session it starts. */
export async function verifyEmailThroughGateway(url: string, email: string): Promise<string> {
  const mail = await nextMail(url, email, /^Verify your email/);
  const verified = await fetch(linkIn(mail), { redirect: 'manual' });
  const cookie = cookieFrom(verified);
  if (verified.status !== 302 || !cookie.includes('session_token')) {
    throw new Error(`verifying ${email} failed: ${verified.status} ${await verified.text()}`);
  }
  return cookie;
}
