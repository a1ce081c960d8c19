// Which store a service gets from its configuration: the stand-in outside production without a bucket
// (with its defaults and the installation's own credentials), S3 with one, a configuration error naming
// MEDIA_S3_BUCKET in production without one; the origin browsers send presigned requests to; and a
// stand-in that refuses production and says what it is in the log.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@engram/kit/config';
import { createObjectStore, mediaPublicOriginOf } from '@engram/kit/storage';
import { openS3StandIn, startS3StandIn } from '@engram/stand-ins/s3';
import { capturedLogger } from '@engram/testkit/captured-logger';
import { describe, expect, it } from 'vitest';
import { CREDENTIALS, CREDENTIALS_ENV, settingsFrom, settingsFromOnly } from '../storage-fixture.js';

const problemsOf = (env: Record<string, string>, read = settingsFrom) => {
  try {
    read(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

describe('storage configuration', () => {
  it('uses the stand-in without a bucket outside production, with its defaults', () => {
    const settings = settingsFrom({ NODE_ENV: 'development' });
    expect(settings).toMatchObject({
      kind: 'stand-in',
      bucket: 'engram-media',
      region: 'us-east-1',
      port: 4570,
      maxObjectBytes: 2 * 1024 ** 3,
      allowedOrigins: ['http://localhost:3000'],
      credentials: CREDENTIALS,
    });
    expect(mediaPublicOriginOf(settings)).toBe('http://localhost:4570');
    expect(
      settingsFrom({ MEDIA_STANDIN_DIR: '/srv/media', MEDIA_STANDIN_ALLOWED_ORIGINS: 'http://a:1, http://b:2' }),
    ).toMatchObject({ dir: '/srv/media', allowedOrigins: ['http://a:1', 'http://b:2'] });
  });

  it("requires the stand-in's credentials made for the installation, never the pair once published", () => {
    expect(problemsOf({ NODE_ENV: 'development' }, settingsFromOnly)).toEqual([
      'MEDIA_STANDIN_ACCESS_KEY_ID: is required for the local S3 stand-in (npm start generates it into .data/dev-secrets.json)',
      'MEDIA_STANDIN_SECRET_ACCESS_KEY: is required for the local S3 stand-in (npm start generates it into .data/dev-secrets.json)',
    ]);
    // The pair the stand-in once accepted, written in its source and its documentation.
    const published = problemsOf({
      MEDIA_STANDIN_ACCESS_KEY_ID: 'engram-stand-in',
      MEDIA_STANDIN_SECRET_ACCESS_KEY: 'engram-stand-in-secret',
    });
    expect(published).toEqual([
      'MEDIA_STANDIN_ACCESS_KEY_ID: must be 16 to 128 upper-case letters and digits, made for this installation',
      'MEDIA_STANDIN_SECRET_ACCESS_KEY: must be at least 32 characters, made for this installation',
    ]);
    // S3's credentials are the SDK's: a bucket needs none of the stand-in's.
    expect(problemsOf({ MEDIA_S3_BUCKET: 'media' }, settingsFromOnly)).toEqual([]);
    expect(problemsOf({ ...CREDENTIALS_ENV, NODE_ENV: 'development' }, settingsFromOnly)).toEqual([]);
  });

  it('requires a bucket in production, and refuses an endpoint without one', () => {
    expect(problemsOf({ NODE_ENV: 'production' })).toEqual([
      'MEDIA_S3_BUCKET: is required in production (without it media would go to the local S3 stand-in)',
    ]);
    expect(problemsOf({ MEDIA_S3_ENDPOINT: 'https://minio.example:9000' })).toEqual([
      'MEDIA_S3_ENDPOINT: is set, but MEDIA_S3_BUCKET is not',
    ]);
    expect(problemsOf({ MEDIA_S3_BUCKET: 'Not_A_Bucket' })[0]).toMatch(/^MEDIA_S3_BUCKET: must be an S3 bucket name/);
    expect(problemsOf({ MEDIA_S3_BUCKET: 'media', MEDIA_S3_REGION: 'Ireland' })[0]).toMatch(/^MEDIA_S3_REGION:/);
  });

  it('uses S3 with a bucket, and names the origin browsers reach it at', () => {
    const aws = settingsFrom({
      NODE_ENV: 'production',
      MEDIA_S3_BUCKET: 'engram-media-prod',
      MEDIA_S3_REGION: 'eu-west-1',
    });
    expect(aws).toEqual({
      kind: 's3',
      bucket: 'engram-media-prod',
      region: 'eu-west-1',
      endpoint: undefined,
      publicEndpoint: undefined,
    });
    expect(mediaPublicOriginOf(aws)).toBe('https://engram-media-prod.s3.eu-west-1.amazonaws.com');
    const dotted = settingsFrom({ MEDIA_S3_BUCKET: 'media.engram.example' });
    expect(mediaPublicOriginOf(dotted)).toBe('https://s3.us-east-1.amazonaws.com');
    const minio = settingsFrom({ MEDIA_S3_BUCKET: 'media', MEDIA_S3_ENDPOINT: 'http://minio.storage:9000' });
    expect(mediaPublicOriginOf(minio)).toBe('http://minio.storage:9000');
    const proxied = settingsFrom({
      MEDIA_S3_BUCKET: 'media',
      MEDIA_S3_ENDPOINT: 'http://minio.storage:9000',
      MEDIA_S3_PUBLIC_ENDPOINT: 'https://media.engram.example/',
    });
    expect(mediaPublicOriginOf(proxied)).toBe('https://media.engram.example');
  });
});

describe('the S3 stand-in', () => {
  it('refuses to start in production', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'engram-s3-test-'));
    try {
      await expect(startS3StandIn({ dir, port: 0, nodeEnv: 'production', credentials: CREDENTIALS })).rejects.toThrow(
        /never runs in production/,
      );
      const settings = settingsFrom({ MEDIA_STANDIN_DIR: dir, MEDIA_STANDIN_PORT: '0' });
      await expect(createObjectStore(settings, { nodeEnv: 'production', openStandIn: openS3StandIn })).rejects.toThrow(
        /never runs in production/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('says in the log that it is a stand-in, and where the files are', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'engram-s3-test-'));
    const { logger, lines } = capturedLogger('storage-test');
    const store = await createObjectStore(settingsFrom({ MEDIA_STANDIN_DIR: dir, MEDIA_STANDIN_PORT: '0' }), {
      nodeEnv: 'development',
      logger,
      openStandIn: openS3StandIn,
    });
    try {
      expect(store.standIn).toBe(true);
      expect(store.publicOrigin).toMatch(/^http:\/\/localhost:\d+$/);
      expect(lines).toContainEqual(
        expect.objectContaining({ level: 'warn', dir, msg: expect.stringMatching(/local S3 stand-in/) }),
      );
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
