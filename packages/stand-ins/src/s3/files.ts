// Where the S3 stand-in keeps objects: <dir>/<bucket>/<key> as a plain file, with a sidecar
// <key>.s3meta.json for its content type, ETag and metadata. A body streams to a temporary file and is
// renamed into place once complete and checked, so a reader never sees half an object. Keys that would
// leave the bucket's directory (`..`, an absolute path) or clash with the layout are refused.
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { type FileHandle, mkdir, open, readdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { noSuchBucket, S3Error } from './xml.js';

const SIDECAR = '.s3meta.json';
const TEMPORARY = '.s3-stand-in-tmp';
const MAX_KEY_BYTES = 1024;

export interface ObjectMeta {
  contentType: string;
  etag: string;
  metadata: Record<string, string>;
  contentDisposition?: string | undefined;
  cacheControl?: string | undefined;
}

export interface StoredFile {
  meta: ObjectMeta;
  size: number;
  lastModified: Date;
  /** Open for reading; the caller closes it (a read stream over it does). */
  handle: FileHandle;
}

export interface ListedObject {
  key: string;
  size: number;
  lastModified: Date;
  etag: string;
}

export interface WriteLimits {
  /** The body's length as the request announced it; a body of another length is refused. */
  expectedLength: number;
  maxBytes: number;
  /** The hex SHA-256 the request signed for its body, checked once it is complete. */
  sha256?: string | undefined;
  /** Sees each chunk as it passes. */
  observe?: (chunk: Buffer) => void;
  /** Runs once the whole body is on disk, before it replaces anything; throws to refuse it. */
  check?: () => void;
}

const invalidKey = (message: string) => new S3Error(400, 'InvalidArgument', message);

export const isBucketName = (name: string) => /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(name);

/** Refuses a key the stand-in cannot keep as a file inside its bucket. */
export function checkKey(key: string) {
  if (Buffer.byteLength(key) > MAX_KEY_BYTES) throw new S3Error(400, 'KeyTooLongError', 'Your key is too long');
  if (key.startsWith('/') || /^[a-zA-Z]:/.test(key)) throw invalidKey('The stand-in refuses absolute keys.');
  const segments = key.split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) {
    throw invalidKey('The stand-in refuses keys with empty, . or .. segments.');
  }
  if (/[\0\\]/.test(key) || key.endsWith(SIDECAR) || segments[0] === TEMPORARY) {
    throw invalidKey('The stand-in cannot keep this key as a file.');
  }
}

const compareKeys = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

async function readMeta(path: string): Promise<ObjectMeta | undefined> {
  try {
    return JSON.parse(await readFile(`${path}${SIDECAR}`, 'utf8')) as ObjectMeta;
  } catch {
    return undefined;
  }
}

const fallbackMeta = (): ObjectMeta => ({ contentType: 'binary/octet-stream', etag: '""', metadata: {} });

export class StandInFiles {
  readonly root: string;
  constructor(root: string) {
    this.root = root;
  }

  private bucketDir(bucket: string) {
    return join(this.root, bucket);
  }

  private pathOf(bucket: string, key: string) {
    checkKey(key);
    const path = join(this.bucketDir(bucket), ...key.split('/'));
    if (relative(this.bucketDir(bucket), path).startsWith('..')) throw invalidKey('The key leaves its bucket.');
    return path;
  }

  async createBucket(bucket: string) {
    await mkdir(join(this.bucketDir(bucket), TEMPORARY), { recursive: true });
  }

  async requireBucket(bucket: string) {
    const found = await stat(this.bucketDir(bucket)).catch(() => undefined);
    if (!found?.isDirectory()) throw noSuchBucket(bucket);
  }

  /** Streams `body` into place as `key`; returns the MD5 ETag (quoted, as S3 gives it). */
  async write(bucket: string, key: string, body: Readable, meta: Omit<ObjectMeta, 'etag'>, limits: WriteLimits) {
    const path = this.pathOf(bucket, key);
    const temporary = join(this.bucketDir(bucket), TEMPORARY, randomUUID());
    const md5 = createHash('md5');
    const sha256 = limits.sha256 ? createHash('sha256') : undefined;
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        if (size > limits.maxBytes) return callback(entityTooLarge(size, limits.maxBytes));
        md5.update(chunk);
        sha256?.update(chunk);
        limits.observe?.(chunk);
        callback(null, chunk);
      },
    });
    try {
      await mkdir(dirname(temporary), { recursive: true });
      await pipeline(body, meter, createWriteStream(temporary));
      if (size !== limits.expectedLength) {
        throw new S3Error(
          400,
          'IncompleteBody',
          'You did not provide the number of bytes specified by the Content-Length HTTP header',
        );
      }
      if (sha256 && sha256.digest('hex') !== limits.sha256) {
        throw new S3Error(
          400,
          'XAmzContentSHA256Mismatch',
          "The provided 'x-amz-content-sha256' header does not match what was computed.",
        );
      }
      limits.check?.();
      const etag = `"${md5.digest('hex')}"`;
      await mkdir(dirname(path), { recursive: true }).catch(() => {
        throw invalidKey('The stand-in keeps keys as files: a key cannot also be the folder of another.');
      });
      const sidecar = `${temporary}${SIDECAR}`;
      await writeFile(sidecar, JSON.stringify({ ...meta, etag }));
      await rename(temporary, path).catch(() => {
        throw invalidKey('The stand-in keeps keys as files: a key cannot also be the folder of another.');
      });
      await rename(sidecar, `${path}${SIDECAR}`);
      return etag;
    } finally {
      await rm(temporary, { force: true });
      await rm(`${temporary}${SIDECAR}`, { force: true });
    }
  }

  /** The object at `key`, open for reading, or null when there is none. */
  async read(bucket: string, key: string): Promise<StoredFile | null> {
    const path = this.pathOf(bucket, key);
    const handle = await open(path, 'r').catch(() => undefined);
    if (!handle) return null;
    const info = await handle.stat();
    if (!info.isFile()) {
      await handle.close();
      return null;
    }
    return { meta: (await readMeta(path)) ?? fallbackMeta(), size: info.size, lastModified: info.mtime, handle };
  }

  /** Removes `key` (nothing when absent) and the folders it leaves empty. */
  async remove(bucket: string, key: string) {
    const path = this.pathOf(bucket, key);
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile()) return;
    await rm(path, { force: true });
    await rm(`${path}${SIDECAR}`, { force: true });
    for (let folder = dirname(path); folder !== this.bucketDir(bucket); folder = dirname(folder)) {
      if (
        !(await rmdir(folder).then(
          () => true,
          () => false,
        ))
      )
        break;
    }
  }

  /** Up to `max` keys starting with `prefix` and sorting after `after`, in S3's (UTF-8 byte) order. */
  async list(bucket: string, prefix: string, after: string | undefined, max: number) {
    const base = this.bucketDir(bucket);
    const keys: string[] = [];
    // Only the folder the prefix names need be walked.
    const start = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
    const walk = async (folder: string, keyPrefix: string): Promise<void> => {
      const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        if (keyPrefix === '' && entry.name === TEMPORARY) continue;
        const key = `${keyPrefix}${entry.name}`;
        if (entry.isDirectory()) await walk(join(folder, entry.name), `${key}/`);
        else if (!entry.name.endsWith(SIDECAR) && key.startsWith(prefix)) keys.push(key);
      }
    };
    await walk(start ? join(base, ...start.split('/')) : base, start ? `${start}/` : '');
    const sorted = keys.sort(compareKeys).filter((key) => after === undefined || compareKeys(key, after) > 0);
    const page = await Promise.all(
      sorted.slice(0, max).map(async (key): Promise<ListedObject | undefined> => {
        const path = join(base, ...key.split('/'));
        const info = await stat(path).catch(() => undefined);
        if (!info) return undefined;
        const meta = (await readMeta(path)) ?? fallbackMeta();
        return { key, size: info.size, lastModified: info.mtime, etag: meta.etag };
      }),
    );
    return {
      objects: page.filter((object): object is ListedObject => object !== undefined),
      truncated: sorted.length > max,
    };
  }
}

export const entityTooLarge = (proposed: number, max: number) =>
  new S3Error(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size', {
    ProposedSize: proposed,
    MaxSizeAllowed: max,
  });
