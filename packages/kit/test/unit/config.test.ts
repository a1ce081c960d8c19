// Configuration is parsed once at start-up: every missing or malformed variable is named in one
// error, empty values count as unset, defaults fill the rest, and a process with a bad environment
// exits with EX_CONFIG (78) instead of starting half-configured.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ConfigError, commonVars, parseConfig, vars } from '@engram/kit/config';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const shape = {
  ...commonVars,
  DATABASE_URL: vars.url(['postgres', 'postgresql']),
  NATS_URL: vars.url(['nats']),
  GRPC_PORT: vars.port(50051),
  CARDS_ADDR: vars.address.default('cards:50051'),
  ALLOWED_ORIGINS: vars.list.default([]),
  SIGNUPS_OPEN: vars.bool.default(false),
};

const valid = { DATABASE_URL: 'postgres://localhost/engram', NATS_URL: 'nats://localhost:4222' };

function problemsOf(env: Record<string, string | undefined>): string[] {
  try {
    parseConfig('cards', shape, env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('parseConfig', () => {
  it('names every missing and malformed variable in one error', () => {
    const problems = problemsOf({ GRPC_PORT: 'abc', NATS_URL: 'http://x' });
    expect(problems).toHaveLength(3);
    expect(problems).toContainEqual('DATABASE_URL: is required but not set');
    expect(problems).toContainEqual('GRPC_PORT: must be a port number (0-65535)');
    expect(problems).toContainEqual('NATS_URL: must start with nats://');
  });

  it('puts the service name and each problem in the message', () => {
    expect(() => parseConfig('cards', shape, { NATS_URL: 'http://x' })).toThrow(
      /^cards: invalid configuration\n {2}- DATABASE_URL: is required but not set\n {2}- NATS_URL: must start/,
    );
  });

  it('treats an empty value as unset', () => {
    expect(problemsOf({ ...valid, DATABASE_URL: '' })).toEqual(['DATABASE_URL: is required but not set']);
    expect(parseConfig('cards', shape, { ...valid, GRPC_PORT: '', LOG_LEVEL: '' })).toMatchObject({
      GRPC_PORT: 50051,
      LOG_LEVEL: 'info',
    });
  });

  it('fills defaults for the variables that are not set', () => {
    expect(parseConfig('cards', shape, valid)).toEqual({
      ...valid,
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      OTEL_EXPORTER_OTLP_ENDPOINT: undefined,
      SERVICE_VERSION: 'dev',
      GRPC_PORT: 50051,
      CARDS_ADDR: 'cards:50051',
      ALLOWED_ORIGINS: [],
      SIGNUPS_OPEN: false,
    });
  });

  it('converts the values it reads', () => {
    const config = parseConfig('cards', shape, {
      ...valid,
      GRPC_PORT: '7000',
      ALLOWED_ORIGINS: 'https://a.example, https://b.example,',
      SIGNUPS_OPEN: '1',
    });
    expect(config).toMatchObject({
      GRPC_PORT: 7000,
      ALLOWED_ORIGINS: ['https://a.example', 'https://b.example'],
      SIGNUPS_OPEN: true,
    });
  });

  it('refuses values outside their allowed forms', () => {
    const problems = problemsOf({
      ...valid,
      GRPC_PORT: '70000',
      CARDS_ADDR: 'cards',
      LOG_LEVEL: 'loud',
      SIGNUPS_OPEN: 'yes',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'collector',
    });
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual([
      'CARDS_ADDR',
      'GRPC_PORT',
      'LOG_LEVEL',
      'OTEL_EXPORTER_OTLP_ENDPOINT',
      'SIGNUPS_OPEN',
    ]);
    expect(problems).toContainEqual('CARDS_ADDR: must be host:port');
    expect(problems).toContainEqual('GRPC_PORT: must be a port number (0-65535)');
  });

  it('ignores variables the schema does not name', () => {
    expect(parseConfig('x', { A: z.string() }, { A: 'a', PATH: '/bin' })).toEqual({ A: 'a' });
  });
});

describe('loadConfig', () => {
  const entryPoint = fileURLToPath(new URL('../fixtures/load-config.ts', import.meta.url));
  const run = (env: Record<string, string>) =>
    spawnSync(process.execPath, ['--conditions=@engram/source', entryPoint], {
      env: { PATH: process.env.PATH ?? '', ...env },
      encoding: 'utf8',
    });

  it('exits with code 78 and prints every problem when the environment is invalid', () => {
    const result = run({ GRPC_PORT: 'abc' });
    expect(result.status).toBe(78);
    expect(result.stderr).toContain('fixture: invalid configuration');
    expect(result.stderr).toContain('DATABASE_URL: is required but not set');
    expect(result.stderr).toContain('GRPC_PORT: must be a port number');
    expect(result.stdout).toBe('');
  });

  it('returns the parsed configuration when the environment is valid', () => {
    const result = run({ DATABASE_URL: 'postgres://localhost/engram' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ DATABASE_URL: 'postgres://localhost/engram', GRPC_PORT: 50051 });
  });
});
