// A service's object store (docs/architecture.md#media-storage): a small API over the AWS SDK's S3 client
// for media and collections. Bodies stream in and out, and browsers upload and download straight to and
// from the store through presigned URLs, so a large file never sits in a service's memory. Outside
// production without MEDIA_S3_BUCKET it opens the local S3 stand-in the caller hands it (openS3StandIn of
// @engram/stand-ins/s3, a development package no production image holds) and talks to it with the same SDK.
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Logger } from './logger.js';
import { mediaPublicOriginOf, type StandInSettings, type StorageSettings } from './storage/config.js';

export { mediaPublicOriginOf, type StorageSettings, storageSettingsOf, storageVars } from './storage/config.js';

/** A running S3 stand-in: its address on this machine, and how to stop it. */
export interface RunningStandIn {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Starts (or joins) the S3 stand-in that stand-in settings name: @engram/stand-ins/s3's openS3StandIn. */
export type OpenStandIn = (
  settings: StandInSettings,
  options: { nodeEnv: string; logger?: Logger | undefined },
) => Promise<RunningStandIn>;

export interface ObjectInfo {
  contentType: string;
  contentLength: number;
  etag: string;
  lastModified: Date | undefined;
  metadata: Record<string, string>;
}

export interface StoredObject extends ObjectInfo {
  /** The object's bytes as they arrive; read it to the end or destroy it. */
  body: Readable;
}

export interface PutOptions {
  contentType: string;
  /** Required for a stream (S3 takes no body of unknown length); a Buffer's own length otherwise. */
  contentLength?: number;
  metadata?: Record<string, string>;
}

export interface PresignedUpload {
  url: string;
  method: 'PUT';
  /** The headers the browser must send with the body (the body's length it sends by itself). */
  headers: Record<string, string>;
}

export interface ObjectStore {
  readonly bucket: string;
  /** True when the objects go to the local stand-in rather than S3. */
  readonly standIn: boolean;
  /** The origin of presigned URLs, for the CSP's connect-src. */
  readonly publicOrigin: string;
  putObject(key: string, body: Buffer | Readable, options: PutOptions): Promise<{ etag: string }>;
  /** The object, or null when there is none. */
  getObject(key: string): Promise<StoredObject | null>;
  headObject(key: string): Promise<ObjectInfo | null>;
  /** Removes the object; nothing happens when there is none. */
  deleteObject(key: string): Promise<void>;
  /** Removes every key (1000 per request); throws naming the keys S3 could not remove. */
  deleteObjects(keys: string[]): Promise<void>;
  /** A URL a browser PUTs the body to; it must send exactly `contentLength` bytes of `contentType`. */
  presignPut(
    key: string,
    options: { contentType: string; contentLength: number; expiresInSeconds: number },
  ): Promise<PresignedUpload>;
  /** A URL a browser GETs the object from; with `downloadName` it is offered as a download of that name. */
  presignGet(key: string, options: { expiresInSeconds: number; downloadName?: string }): Promise<string>;
  /** Every key starting with `prefix`, in S3's order, fetched a page at a time. */
  listKeys(prefix: string, options?: { pageSize?: number }): AsyncIterable<string>;
  close(): Promise<void>;
}

/** The SDK's error names for an object that is not there (GetObject's, then HeadObject's). */
const isMissing = (error: unknown) => error instanceof Error && ['NoSuchKey', 'NotFound'].includes(error.name);

const DELETE_BATCH = 1000;
const CONNECT_TIMEOUT_MS = 3_000;
/** How long a connection may stay silent; a long transfer that keeps moving is not cut. */
const IDLE_TIMEOUT_MS = 30_000;

/** `attachment` with the name twice: plain ASCII for old clients, UTF-8 (RFC 6266) for the rest. */
export function attachmentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16)}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

async function* keysOf(client: S3Client, bucket: string, prefix: string, pageSize: number | undefined) {
  let token: string | undefined;
  do {
    const page = await client.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token, MaxKeys: pageSize }),
    );
    for (const object of page.Contents ?? []) if (object.Key !== undefined) yield object.Key;
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
}

/**
 * Opens the store `settings` name. Stand-in settings need `openStandIn`: the service loads it only then, from
 * a package production images leave out.
 */
export async function createObjectStore(
  settings: StorageSettings,
  options: { nodeEnv: string; logger?: Logger; openStandIn?: OpenStandIn | undefined },
): Promise<ObjectStore> {
  let standIn: RunningStandIn | undefined;
  let endpoint = settings.kind === 's3' ? settings.endpoint : undefined;
  let publicOrigin = mediaPublicOriginOf(settings);
  if (settings.kind === 'stand-in') {
    if (!options.openStandIn) throw new Error('media storage needs MEDIA_S3_BUCKET: this process has no S3 stand-in');
    standIn = await options.openStandIn(settings, { nodeEnv: options.nodeEnv, logger: options.logger });
    endpoint = standIn.url;
    publicOrigin = settings.publicEndpoint ? publicOrigin : `http://localhost:${standIn.port}`;
  }
  const common: S3ClientConfig = {
    region: settings.region,
    forcePathStyle: Boolean(endpoint),
    requestHandler: { connectionTimeout: CONNECT_TIMEOUT_MS, requestTimeout: IDLE_TIMEOUT_MS },
    ...(settings.kind === 'stand-in' && { credentials: settings.credentials }),
  };
  const client = new S3Client({ ...common, ...(endpoint && { endpoint }) });
  // Presigned URLs carry the host browsers use, which the signature covers; and no checksum of an empty
  // body, which would make S3 refuse the upload that follows.
  const presignEndpoint = settings.publicEndpoint ?? (standIn ? publicOrigin : endpoint);
  const presigner = new S3Client({
    ...common,
    forcePathStyle: Boolean(presignEndpoint),
    ...(presignEndpoint && { endpoint: presignEndpoint }),
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const bucket = settings.bucket;

  const infoOf = (output: {
    ContentType?: string | undefined;
    ContentLength?: number | undefined;
    ETag?: string | undefined;
    LastModified?: Date | undefined;
    Metadata?: Record<string, string> | undefined;
  }): ObjectInfo => ({
    contentType: output.ContentType ?? 'binary/octet-stream',
    contentLength: output.ContentLength ?? 0,
    etag: output.ETag ?? '',
    lastModified: output.LastModified,
    metadata: output.Metadata ?? {},
  });

  return {
    bucket,
    standIn: standIn !== undefined,
    publicOrigin,
    async putObject(key, body, { contentType, contentLength, metadata }) {
      const output = await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: key,
          Body: body,
          ContentType: contentType,
          ContentLength: contentLength ?? (Buffer.isBuffer(body) ? body.length : undefined),
          Metadata: metadata,
        }),
      );
      return { etag: output.ETag ?? '' };
    },
    async getObject(key) {
      try {
        const output = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return { ...infoOf(output), body: output.Body as Readable };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async headObject(key) {
      try {
        return infoOf(await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key })));
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async deleteObject(key) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
    async deleteObjects(keys) {
      for (let at = 0; at < keys.length; at += DELETE_BATCH) {
        const batch = keys.slice(at, at + DELETE_BATCH);
        const output = await client.send(
          new DeleteObjectsCommand({
            Bucket: bucket,
            Delete: { Objects: batch.map((key) => ({ Key: key })), Quiet: true },
          }),
        );
        const failed = output.Errors ?? [];
        if (failed.length > 0) {
          throw new Error(`could not delete ${failed.map((error) => `${error.Key} (${error.Code})`).join(', ')}`);
        }
      }
    },
    async presignPut(key, { contentType, contentLength, expiresInSeconds }) {
      const command = new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        ContentType: contentType,
        ContentLength: contentLength,
      });
      // The signature covers the type and the length, so the browser can send neither another kind nor
      // another size of file than the service agreed to.
      const url = await getSignedUrl(presigner, command, {
        expiresIn: expiresInSeconds,
        signableHeaders: new Set(['content-type', 'content-length']),
      });
      return { url, method: 'PUT', headers: { 'content-type': contentType } };
    },
    presignGet(key, { expiresInSeconds, downloadName }) {
      const command = new GetObjectCommand({
        Bucket: bucket,
        Key: key,
        ...(downloadName !== undefined && { ResponseContentDisposition: attachmentDisposition(downloadName) }),
      });
      return getSignedUrl(presigner, command, { expiresIn: expiresInSeconds });
    },
    listKeys: (prefix, listOptions = {}) => keysOf(client, bucket, prefix, listOptions.pageSize),
    async close() {
      client.destroy();
      presigner.destroy();
      await standIn?.close();
    },
  };
}
