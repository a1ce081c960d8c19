// The S3 operations the stand-in answers, each as S3 does for the part Engram and the AWS SDK use:
// CreateBucket, HeadBucket, ListObjectsV2, PutObject (aws-chunked or plain, its checksum trailer checked),
// GetObject and HeadObject (single ranges, response-* overrides), DeleteObject and DeleteObjects.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32 } from 'node:zlib';
import { AwsChunkedDecoder } from './aws-chunked.js';
import { checkKey, entityTooLarge, type StandInFiles } from './files.js';
import { noSuchKey, S3Error, sendXml, xmlFields, xmlValues } from './xml.js';

export interface Target {
  bucket: string;
  key: string;
  query: Record<string, string | string[]>;
}

export interface HandlerContext {
  files: StandInFiles;
  maxObjectBytes: number;
  /** Sends `100 Continue` when the client waits for it, once the request has passed every check. */
  proceed(): void;
}

const S3_NAMESPACE = 'http://s3.amazonaws.com/doc/2006-03-01/';
const MAX_LIST_KEYS = 1000;
const MAX_DELETE_BODY = 2 * 1024 * 1024;

const text = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
const header = (req: IncomingMessage, name: string) => text(req.headers[name]);

export async function createBucket(ctx: HandlerContext, res: ServerResponse, { bucket }: Target) {
  await ctx.files.createBucket(bucket);
  res.writeHead(200, { location: `/${bucket}` }).end();
}

export async function headBucket(ctx: HandlerContext, res: ServerResponse, { bucket }: Target) {
  await ctx.files.requireBucket(bucket);
  res.writeHead(200, { 'x-amz-bucket-region': 'us-east-1' }).end();
}

export async function listObjects(ctx: HandlerContext, res: ServerResponse, { bucket, query }: Target) {
  await ctx.files.requireBucket(bucket);
  if (text(query.delimiter)) throw new S3Error(501, 'NotImplemented', 'The stand-in lists without a delimiter.');
  const prefix = text(query.prefix) ?? '';
  const token = text(query['continuation-token']);
  const startAfter = text(query['start-after']);
  const maxKeys = Math.min(Number(text(query['max-keys']) ?? MAX_LIST_KEYS), MAX_LIST_KEYS);
  if (!Number.isInteger(maxKeys) || maxKeys < 0) throw new S3Error(400, 'InvalidArgument', 'Invalid max-keys');
  const after = token === undefined ? startAfter : Buffer.from(token, 'base64url').toString('utf8');
  const { objects, truncated } = await ctx.files.list(bucket, prefix, after, maxKeys);
  const last = objects.at(-1)?.key;
  const urlEncoded = text(query['encoding-type']) === 'url';
  const keyText = (key: string) => (urlEncoded ? encodeURIComponent(key).replace(/%2F/g, '/') : key);
  const contents = objects
    .map(
      (object) =>
        `<Contents>${xmlFields({
          Key: keyText(object.key),
          LastModified: object.lastModified.toISOString(),
          ETag: object.etag,
          Size: object.size,
          StorageClass: 'STANDARD',
        })}</Contents>`,
    )
    .join('');
  sendXml(
    res,
    200,
    `<ListBucketResult xmlns="${S3_NAMESPACE}">${xmlFields({
      Name: bucket,
      Prefix: keyText(prefix),
      KeyCount: objects.length,
      MaxKeys: maxKeys,
      IsTruncated: truncated,
      ContinuationToken: token,
      NextContinuationToken: truncated && last ? Buffer.from(last).toString('base64url') : undefined,
      StartAfter: startAfter,
      EncodingType: urlEncoded ? 'url' : undefined,
    })}${contents}</ListBucketResult>`,
  );
}

/** The `x-amz-meta-*` headers of a request, by name without the prefix. */
const metadataOf = (req: IncomingMessage) =>
  Object.fromEntries(
    Object.entries(req.headers)
      .filter(([name]) => name.startsWith('x-amz-meta-'))
      .map(([name, value]) => [name.slice('x-amz-meta-'.length), text(value) ?? '']),
  );

export async function putObject(ctx: HandlerContext, req: IncomingMessage, res: ServerResponse, target: Target) {
  await ctx.files.requireBucket(target.bucket);
  checkKey(target.key);
  if (req.headers['x-amz-copy-source']) throw new S3Error(501, 'NotImplemented', 'The stand-in does not copy objects.');
  const chunked = (header(req, 'content-encoding') ?? '').split(',').some((coding) => coding.trim() === 'aws-chunked');
  const announced = header(req, chunked ? 'x-amz-decoded-content-length' : 'content-length');
  if (announced === undefined || !/^\d+$/.test(announced)) {
    throw new S3Error(411, 'MissingContentLength', 'You must provide the Content-Length HTTP header.');
  }
  const length = Number(announced);
  if (length > ctx.maxObjectBytes) throw entityTooLarge(length, ctx.maxObjectBytes);
  const payloadHash = header(req, 'x-amz-content-sha256');
  ctx.proceed();

  const decoder = chunked ? new AwsChunkedDecoder() : undefined;
  const body: Readable = decoder ? req.pipe(decoder) : req;
  if (decoder) req.once('error', (error) => decoder.destroy(error));
  const checksumName = header(req, 'x-amz-trailer') ?? '';
  let crc = 0;
  const etag = await ctx.files.write(
    target.bucket,
    target.key,
    body,
    {
      contentType: header(req, 'content-type') ?? 'binary/octet-stream',
      contentDisposition: header(req, 'content-disposition'),
      cacheControl: header(req, 'cache-control'),
      metadata: metadataOf(req),
    },
    {
      expectedLength: length,
      maxBytes: ctx.maxObjectBytes,
      sha256: payloadHash && /^[0-9a-f]{64}$/.test(payloadHash) ? payloadHash : undefined,
      observe: (chunk) => {
        crc = crc32(chunk, crc);
      },
      check: () => {
        const given = decoder?.trailers['x-amz-checksum-crc32'] ?? header(req, 'x-amz-checksum-crc32');
        const computed = Buffer.alloc(4);
        computed.writeUInt32BE(crc >>> 0);
        if (given !== undefined && given !== computed.toString('base64')) {
          throw new S3Error(400, 'BadDigest', 'The CRC32 you specified did not match the calculated checksum.');
        }
        if (checksumName && checksumName !== 'x-amz-checksum-crc32' && !decoder?.trailers[checksumName]) {
          throw new S3Error(400, 'InvalidRequest', `The trailer ${checksumName} was announced but not sent.`);
        }
      },
    },
  );
  res.writeHead(200, { etag }).end();
}

/** The single byte range of a Range header, or undefined for the whole object; S3 ignores a malformed one. */
function rangeOf(value: string | undefined, size: number): { start: number; end: number } | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(value ?? '');
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  const [, first = '', last = ''] = match;
  const start = first === '' ? Math.max(size - Number(last), 0) : Number(first);
  const end = first === '' || last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size || start > end || (first === '' && Number(last) === 0)) {
    throw new S3Error(416, 'InvalidRange', 'The requested range is not satisfiable', {
      ActualObjectSize: size,
      RangeRequested: value ?? '',
    });
  }
  return { start, end };
}

export async function getObject(ctx: HandlerContext, req: IncomingMessage, res: ServerResponse, target: Target) {
  await ctx.files.requireBucket(target.bucket);
  const stored = await ctx.files.read(target.bucket, target.key);
  if (!stored) throw noSuchKey(target.key);
  const { meta, size, handle } = stored;
  try {
    const override = (name: string) => text(target.query[`response-${name}`]);
    const headers: Record<string, string | number> = {
      'content-type': override('content-type') ?? meta.contentType,
      etag: meta.etag,
      'last-modified': stored.lastModified.toUTCString(),
      'accept-ranges': 'bytes',
      ...Object.fromEntries(Object.entries(meta.metadata).map(([name, value]) => [`x-amz-meta-${name}`, value])),
    };
    const disposition = override('content-disposition') ?? meta.contentDisposition;
    if (disposition) headers['content-disposition'] = disposition;
    const cacheControl = override('cache-control') ?? meta.cacheControl;
    if (cacheControl) headers['cache-control'] = cacheControl;
    if (header(req, 'if-none-match') === meta.etag) {
      res.writeHead(304, headers).end();
      return;
    }
    const range = req.method === 'GET' ? rangeOf(header(req, 'range'), size) : undefined;
    const { start, end } = range ?? { start: 0, end: size - 1 };
    headers['content-length'] = Math.max(end - start + 1, 0);
    if (range) headers['content-range'] = `bytes ${start}-${end}/${size}`;
    res.writeHead(range ? 206 : 200, headers);
    if (req.method === 'HEAD' || size === 0) {
      res.end();
      return;
    }
    await pipeline(handle.createReadStream({ start, end, autoClose: false }), res);
  } finally {
    await handle.close();
  }
}

export async function deleteObject(ctx: HandlerContext, res: ServerResponse, target: Target) {
  await ctx.files.requireBucket(target.bucket);
  await ctx.files.remove(target.bucket, target.key);
  res.writeHead(204).end();
}

async function readSmallBody(req: IncomingMessage) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_DELETE_BODY) throw new S3Error(400, 'MalformedXML', 'The XML you provided was too large.');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function deleteObjects(ctx: HandlerContext, req: IncomingMessage, res: ServerResponse, target: Target) {
  await ctx.files.requireBucket(target.bucket);
  ctx.proceed();
  const xml = await readSmallBody(req);
  const keys = xmlValues(xml, 'Key');
  if (!xml.includes('<Delete') || keys.length === 0 || keys.length > MAX_LIST_KEYS) {
    throw new S3Error(400, 'MalformedXML', 'The XML you provided was not well-formed or did not validate.');
  }
  const quiet = xmlValues(xml, 'Quiet')[0] === 'true';
  const outcomes = await Promise.all(
    keys.map(async (key) => {
      try {
        await ctx.files.remove(target.bucket, key);
        return quiet ? '' : `<Deleted>${xmlFields({ Key: key })}</Deleted>`;
      } catch (error) {
        if (!(error instanceof S3Error)) throw error;
        return `<Error>${xmlFields({ Key: key, Code: error.code, Message: error.message })}</Error>`;
      }
    }),
  );
  sendXml(res, 200, `<DeleteResult xmlns="${S3_NAMESPACE}">${outcomes.join('')}</DeleteResult>`);
}
