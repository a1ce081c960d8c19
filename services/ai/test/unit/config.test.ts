// ai's configuration: Bedrock with a region and a model (credentials both or neither), the offline
// generator without them, never in production; a clear message for each problem.
import { ConfigError } from '@engram/kit/config';
import { describe, expect, it } from 'vitest';
import { parseAiConfig as readConfig } from '../../src/config.js';

const MB = 1024 * 1024;
const BASE = {
  NODE_ENV: 'development',
  INTERNAL_TOKEN_PUBLIC_KEYS: '{"keys":[]}',
  DATABASE_URL: 'postgresql://localhost/engram?schema=ai',
  NATS_URL: 'nats://localhost:4222',
  CARDS_ADDR: 'cards:50053',
  BILLING_ADDR: 'billing:50054',
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    readConfig({ ...BASE, ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('the generator the configuration chooses', () => {
  it('is the offline generator without Bedrock settings, outside production', () => {
    expect(readConfig(BASE).bedrock).toBeUndefined();
  });

  it('is Bedrock with a region and a model, streaming by default', () => {
    const config = readConfig({
      ...BASE,
      BEDROCK_REGION: 'eu-central-1',
      BEDROCK_MODEL_ID: 'anthropic.claude-3-5-haiku-20241022-v1:0',
      AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
      AWS_SECRET_ACCESS_KEY: 'secret',
    });
    expect(config.bedrock).toMatchObject({
      region: 'eu-central-1',
      streaming: true,
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
      callTimeoutMs: 45_000,
    });
    expect(config.generationTimeoutMs).toBe(90_000);
  });

  it('refuses production without Bedrock, half of the Bedrock or AWS settings, and an overlong timeout', () => {
    expect(problemsOf({ NODE_ENV: 'production' })).toEqual([
      'BEDROCK_REGION: is required in production (without it ai would run the offline generator)',
    ]);
    expect(problemsOf({ BEDROCK_REGION: 'us-east-1' })).toEqual([
      'BEDROCK_REGION, BEDROCK_MODEL_ID: give both (Bedrock) or neither (the offline generator)',
    ]);
    expect(problemsOf({ AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE' })).toEqual([
      'AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY: give both or neither',
    ]);
    expect(problemsOf({ AI_GENERATION_TIMEOUT_SECONDS: '600' })).toEqual([
      'AI_GENERATION_TIMEOUT_SECONDS: must be at most 300',
    ]);
    expect(problemsOf({ BEDROCK_REGION: 'somewhere', BEDROCK_MODEL_ID: 'm' })[0]).toMatch(
      /^BEDROCK_REGION: must be an AWS region/,
    );
  });
});

describe('the limits of uploads', () => {
  it('reads files two at a time in 256 MB and 20 s each, unpacking at most 100 MB, and keeps 30 files or 30 MB a learner', () => {
    expect(readConfig(BASE).uploads).toEqual({
      reader: { parsers: 2, memoryBytes: 256 * MB, timeoutMs: 20_000, maxInflatedBytes: 100 * MB },
      quota: { files: 30, bytes: 30 * MB },
      sweepIntervalMs: 600_000,
    });
  });

  it('takes each limit from its variable', () => {
    const config = readConfig({
      ...BASE,
      AI_UPLOAD_PARSERS: '4',
      AI_UPLOAD_PARSE_MEMORY_MB: '512',
      AI_UPLOAD_PARSE_TIMEOUT_SECONDS: '5',
      AI_UPLOAD_MAX_INFLATED_MB: '50',
      AI_UPLOAD_QUOTA_FILES: '10',
      AI_UPLOAD_QUOTA_MB: '12',
      AI_UPLOAD_SWEEP_INTERVAL_SECONDS: '60',
    });
    expect(config.uploads).toEqual({
      reader: { parsers: 4, memoryBytes: 512 * MB, timeoutMs: 5_000, maxInflatedBytes: 50 * MB },
      quota: { files: 10, bytes: 12 * MB },
      sweepIntervalMs: 60_000,
    });
  });

  it('refuses a reading process too small to load PDF.js, and limits that are not positive', () => {
    expect(problemsOf({ AI_UPLOAD_PARSE_MEMORY_MB: '64' })).toEqual(['AI_UPLOAD_PARSE_MEMORY_MB: must be at least 96']);
    expect(problemsOf({ AI_UPLOAD_PARSERS: '0' })).toHaveLength(1);
  });
});
