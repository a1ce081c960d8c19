// The variables of a service that keeps media (docs/architecture.md#media-storage), and the rules across
// them: an S3 bucket when MEDIA_S3_BUCKET is set, the local S3 stand-in (@engram/stand-ins/s3) otherwise — never in
// production, where a missing bucket stops the service at start-up like any other configuration error.
// S3's credentials come from the AWS SDK's default chain (AWS_ACCESS_KEY_ID…, a profile, the pod's IAM
// role); the stand-in's are the installation's own pair, MEDIA_STANDIN_ACCESS_KEY_ID and
// MEDIA_STANDIN_SECRET_ACCESS_KEY (npm start generates them into .data/dev-secrets.json).
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { ConfigError, vars } from '../config.js';
import { STAND_IN_ACCESS_KEY_ID, STAND_IN_SECRET_MIN_LENGTH, type StandInCredentials } from './stand-in-credentials.js';

const GIB = 1024 ** 3;

/** The bucket the stand-in keeps media in (its own; nothing outside it sees the name). */
export const STAND_IN_BUCKET = 'engram-media';
export const STAND_IN_DEFAULT_PORT = 4570;
/** S3's own limit for one PUT is 5 GiB; media and collections stay well below. */
export const STAND_IN_DEFAULT_MAX_OBJECT_BYTES = 2 * GIB;
const DEVELOPMENT_ORIGIN = 'http://localhost:3000';

export const storageVars = {
  /** The S3 bucket media is kept in. Set: S3 (or the store at MEDIA_S3_ENDPOINT); unset: the local stand-in. */
  MEDIA_S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name (3-63 lowercase letters, digits, . and -)')
    .optional(),
  MEDIA_S3_REGION: vars.awsRegion.default('us-east-1'),
  /** An S3-compatible store (MinIO, R2, a VPC endpoint); addressed path-style, /<bucket>/<key>. */
  MEDIA_S3_ENDPOINT: vars.url(['http', 'https']).optional(),
  /** The origin browsers use for presigned URLs, when it differs from the one the service reaches. */
  MEDIA_S3_PUBLIC_ENDPOINT: vars.url(['http', 'https']).optional(),
  /** Where the stand-in keeps its files (npm start: .data/media); a directory under the system's temp dir when unset. */
  MEDIA_STANDIN_DIR: z.string().optional(),
  /** The stand-in's port on 127.0.0.1; 0 takes any free one (tests). */
  MEDIA_STANDIN_PORT: vars.port(STAND_IN_DEFAULT_PORT),
  /** The largest object the stand-in takes; larger PUTs get S3's EntityTooLarge. */
  MEDIA_STANDIN_MAX_OBJECT_BYTES: vars.positiveInt(STAND_IN_DEFAULT_MAX_OBJECT_BYTES),
  /** The app origins whose pages may upload to and read from the stand-in (CORS); the local app's by default. */
  MEDIA_STANDIN_ALLOWED_ORIGINS: vars.list.optional(),
  /** The stand-in's credentials, made for this installation; required when it runs (no MEDIA_S3_BUCKET). */
  MEDIA_STANDIN_ACCESS_KEY_ID: z
    .string()
    .regex(STAND_IN_ACCESS_KEY_ID, 'must be 16 to 128 upper-case letters and digits, made for this installation')
    .optional(),
  MEDIA_STANDIN_SECRET_ACCESS_KEY: z
    .string()
    .min(
      STAND_IN_SECRET_MIN_LENGTH,
      `must be at least ${STAND_IN_SECRET_MIN_LENGTH} characters, made for this installation`,
    )
    .optional(),
};

type StorageConfig = z.infer<z.ZodObject<typeof storageVars>> & { NODE_ENV: string };

export interface S3Settings {
  kind: 's3';
  bucket: string;
  region: string;
  /** Unset: AWS's own endpoint for the region, virtual-hosted style. */
  endpoint?: string | undefined;
  publicEndpoint?: string | undefined;
}

export interface StandInSettings {
  kind: 'stand-in';
  bucket: string;
  region: string;
  dir: string;
  port: number;
  maxObjectBytes: number;
  allowedOrigins: string[];
  /** Unset: http://localhost:<port>. */
  publicEndpoint?: string | undefined;
  /** The only pair it accepts, and the one the service signs with. */
  credentials: StandInCredentials;
}

export type StorageSettings = S3Settings | StandInSettings;

/** S3 settings, or the stand-in's outside production; throws a ConfigError naming what is wrong. */
export function storageSettingsOf(service: string, config: StorageConfig): StorageSettings {
  const problems: string[] = [];
  if (!config.MEDIA_S3_BUCKET) {
    if (config.NODE_ENV === 'production') {
      problems.push('MEDIA_S3_BUCKET: is required in production (without it media would go to the local S3 stand-in)');
    }
    if (config.MEDIA_S3_ENDPOINT) problems.push('MEDIA_S3_ENDPOINT: is set, but MEDIA_S3_BUCKET is not');
    for (const name of ['MEDIA_STANDIN_ACCESS_KEY_ID', 'MEDIA_STANDIN_SECRET_ACCESS_KEY'] as const) {
      if (!config[name] && config.NODE_ENV !== 'production') {
        problems.push(
          `${name}: is required for the local S3 stand-in (npm start generates it into .data/dev-secrets.json)`,
        );
      }
    }
  }
  if (problems.length > 0) throw new ConfigError(service, problems);
  if (config.MEDIA_S3_BUCKET) {
    return {
      kind: 's3',
      bucket: config.MEDIA_S3_BUCKET,
      region: config.MEDIA_S3_REGION,
      endpoint: config.MEDIA_S3_ENDPOINT,
      publicEndpoint: config.MEDIA_S3_PUBLIC_ENDPOINT,
    };
  }
  return {
    kind: 'stand-in',
    bucket: STAND_IN_BUCKET,
    region: config.MEDIA_S3_REGION,
    dir: config.MEDIA_STANDIN_DIR ?? join(tmpdir(), 'engram-s3-stand-in'),
    port: config.MEDIA_STANDIN_PORT,
    maxObjectBytes: config.MEDIA_STANDIN_MAX_OBJECT_BYTES,
    allowedOrigins: config.MEDIA_STANDIN_ALLOWED_ORIGINS ?? [DEVELOPMENT_ORIGIN],
    publicEndpoint: config.MEDIA_S3_PUBLIC_ENDPOINT,
    credentials: {
      accessKeyId: config.MEDIA_STANDIN_ACCESS_KEY_ID ?? '',
      secretAccessKey: config.MEDIA_STANDIN_SECRET_ACCESS_KEY ?? '',
    },
  };
}

/**
 * The origin browsers send presigned uploads and downloads to, for the gateway's CSP connect-src (and
 * img-src/media-src). With the stand-in on port 0 the real port is known only once it runs: use the
 * store's own `publicOrigin` then.
 */
export function mediaPublicOriginOf(settings: StorageSettings): string {
  if (settings.publicEndpoint) return new URL(settings.publicEndpoint).origin;
  if (settings.kind === 'stand-in') return `http://localhost:${settings.port}`;
  if (settings.endpoint) return new URL(settings.endpoint).origin;
  // The SDK addresses AWS virtual-hosted style, except for bucket names with dots (TLS would not match).
  return settings.bucket.includes('.')
    ? `https://s3.${settings.region}.amazonaws.com`
    : `https://${settings.bucket}.s3.${settings.region}.amazonaws.com`;
}
