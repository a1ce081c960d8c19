// Every built component refuses to start on a bad environment: it exits at once with EX_CONFIG (78)
// and names each missing or malformed variable, instead of crashing later or listening half-configured.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { type ComponentName, componentEnvironments, entryPointOf } from '@engram/local/components';
import { freePorts } from '@engram/local/ports';
import { createSecrets } from '@engram/local/secrets';
import { describe, expect, it } from 'vitest';

const EX_CONFIG = 78;
const EXIT_WAIT_MS = 15_000;

interface Broken {
  component: ComponentName;
  unset: string[];
  malformed: Record<string, string>;
}

const CASES: Broken[] = [
  { component: 'identity', unset: ['INTERNAL_TOKEN_PUBLIC_KEYS', 'NATS_URL'], malformed: { GRPC_PORT: 'abc' } },
  { component: 'organizations', unset: ['INTERNAL_TOKEN_PUBLIC_KEYS'], malformed: { METRICS_PORT: 'nine' } },
  { component: 'cards', unset: ['NATS_URL'], malformed: { DATABASE_URL: 'mysql://localhost/cards' } },
  { component: 'billing', unset: ['INTERNAL_TOKEN_PUBLIC_KEYS'], malformed: { HTTP_PORT: '70000' } },
  { component: 'ai', unset: ['INTERNAL_TOKEN_PUBLIC_KEYS'], malformed: { LOG_LEVEL: 'loud' } },
  {
    component: 'gateway',
    unset: ['INTERNAL_TOKEN_PRIVATE_KEY'],
    malformed: { CARDS_ADDR: 'nope', SUPPORT_EMAIL: 'nobody', GA_MEASUREMENT_ID: 'UA-1234-1' },
  },
];

/** The environment `npm start` would give `component`: valid, so only the broken variables can be reported. */
async function validEnvironment(component: ComponentName): Promise<Record<string, string>> {
  const environments = componentEnvironments({
    databaseUrl: 'postgresql://postgres@127.0.0.1:5432/engram_config_test',
    redisUrl: 'redis://127.0.0.1:6379',
    natsUrl: 'nats://127.0.0.1:4222',
    ports: await freePorts(),
    secrets: await createSecrets(),
    publicBaseUrl: 'http://localhost:3000',
    streamName: 'ENGRAM_CONFIG_TEST',
    subjectPrefix: 'config-test.',
    logLevel: 'silent',
  });
  const env = environments.find(([name]) => name === component)?.[1];
  if (!env) throw new Error(`no environment for ${component}`);
  return env;
}

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** Runs `entry` until it exits, killing it (and failing) if it is still running after EXIT_WAIT_MS. */
function runToExit(entry: string, env: Record<string, string>): Promise<Exit> {
  const child = spawn(process.execPath, [entry], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${entry} was still running after ${EXIT_WAIT_MS / 1000} s; stderr:\n${stderr}`));
    }, EXIT_WAIT_MS);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr });
    });
  });
}

describe('start-up with a bad environment', () => {
  it.each(CASES)('$component exits with code 78 naming every bad variable', async ({ component, unset, malformed }) => {
    const entry = entryPointOf(component);
    if (!existsSync(entry)) throw new Error(`${entry} is missing: build first (pnpm run build:all)`);
    const env = { ...(await validEnvironment(component)), ...malformed };
    for (const name of unset) {
      expect(env[name], `${name} is part of ${component}'s environment`).toBeTruthy();
      delete env[name];
    }

    const exit = await runToExit(entry, env);

    expect(exit.signal).toBeNull();
    expect(exit.code, exit.stderr).toBe(EX_CONFIG);
    expect(exit.stderr).toContain(`${component}: invalid configuration`);
    const problems = exit.stderr.split('\n').filter((line) => line.startsWith('  - '));
    for (const name of unset) expect(problems).toContain(`  - ${name}: is required but not set`);
    for (const name of Object.keys(malformed)) {
      expect(
        problems.some((line) => line.startsWith(`  - ${name}: `)),
        `${name} in:\n${exit.stderr}`,
      ).toBe(true);
    }
    // Only the broken variables: the rest of the environment is what `npm start` passes and is valid.
    expect(problems).toHaveLength(unset.length + Object.keys(malformed).length);
  });
});

describe('where the app lives has no silent default in production', () => {
  const edge: ComponentName[] = ['gateway', 'identity', 'billing'];

  it.each(edge)('%s refuses production without PUBLIC_BASE_URL', async (component) => {
    const env: Record<string, string> = { ...(await validEnvironment(component)), NODE_ENV: 'production' };
    delete env.PUBLIC_BASE_URL;
    const exit = await runToExit(entryPointOf(component), env);
    expect(exit.code, exit.stderr).toBe(EX_CONFIG);
    expect(exit.stderr).toContain('  - PUBLIC_BASE_URL: is required in production');
  });

  it.each(edge)('%s refuses a public URL other than localhost when NODE_ENV is not set', async (component) => {
    const env: Record<string, string> = {
      ...(await validEnvironment(component)),
      PUBLIC_BASE_URL: 'https://engram.example.com',
    };
    delete env.NODE_ENV;
    const exit = await runToExit(entryPointOf(component), env);
    expect(exit.code, exit.stderr).toBe(EX_CONFIG);
    expect(exit.stderr).toContain('  - NODE_ENV: must be set (production, development or test)');
  });
});

describe('billing never runs its Stripe stand-in in production', () => {
  it('refuses production without Stripe keys', async () => {
    const env = {
      ...(await validEnvironment('billing')),
      NODE_ENV: 'production',
      PUBLIC_BASE_URL: 'https://engram.example.com',
    };
    const exit = await runToExit(entryPointOf('billing'), env);
    expect(exit.code, exit.stderr).toBe(EX_CONFIG);
    expect(exit.stderr).toContain('  - STRIPE_SECRET_KEY: is required in production');
  });

  it('refuses a Stripe test-mode key in production', async () => {
    const env = {
      ...(await validEnvironment('billing')),
      NODE_ENV: 'production',
      PUBLIC_BASE_URL: 'https://engram.example.com',
      STRIPE_SECRET_KEY: 'rk_test_123',
    };
    const exit = await runToExit(entryPointOf('billing'), env);
    expect(exit.code, exit.stderr).toBe(EX_CONFIG);
    expect(exit.stderr).toContain(
      '  - STRIPE_SECRET_KEY: is a test-mode key (sk_test_…, rk_test_…); production needs a live key',
    );
  });

  it('names the webhook secret and every price id missing beside a Stripe key', async () => {
    const env = {
      ...(await validEnvironment('billing')),
      STRIPE_SECRET_KEY: 'sk_test_123',
      STRIPE_PRICE_PRO_ANNUAL_BRL: 'price_1',
    };
    const exit = await runToExit(entryPointOf('billing'), env);
    expect(exit.code, exit.stderr).toBe(EX_CONFIG);
    const problems = exit.stderr.split('\n').filter((line) => line.startsWith('  - '));
    expect(problems).toContain('  - STRIPE_WEBHOOK_SECRET: is required with STRIPE_SECRET_KEY');
    expect(problems).toContain('  - STRIPE_PRICE_PLUS_MONTHLY_USD: is required with STRIPE_SECRET_KEY');
    expect(problems).not.toContain('  - STRIPE_PRICE_PRO_ANNUAL_BRL: is required with STRIPE_SECRET_KEY');
    expect(problems).toHaveLength(1 + 11);
  });
});

describe('mail has no stand-in in production', () => {
  it('identity refuses production without SES, naming it with every other problem', async () => {
    const env: Record<string, string> = { ...(await validEnvironment('identity')), NODE_ENV: 'production' };
    delete env.PUBLIC_BASE_URL;
    const exit = await runToExit(entryPointOf('identity'), env);
    expect(exit.code, exit.stderr).toBe(EX_CONFIG);
    expect(exit.stderr).toContain('  - PUBLIC_BASE_URL: is required in production');
    expect(exit.stderr).toContain('  - SES_REGION: is required in production (the dev mailbox never runs there)');
  });

  it('identity refuses SES without the sender', async () => {
    const env = { ...(await validEnvironment('identity')), SES_REGION: 'eu-west-1' };
    const exit = await runToExit(entryPointOf('identity'), env);
    expect(exit.code, exit.stderr).toBe(EX_CONFIG);
    expect(exit.stderr).toContain('  - MAIL_FROM: is required when SES_REGION is set');
  });
});
