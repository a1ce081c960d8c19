// A local stand-in for Amazon S3, for `npm start` without MEDIA_S3_BUCKET and for the tests: an HTTP
// server (node:http) speaking the part of S3's REST protocol the AWS SDK and browsers use (handlers.ts),
// path-style (/<bucket>/<key>), with SigV4 checked on every request against the installation's own
// credentials (auth.ts; the kit's storage/stand-in-credentials.ts makes and checks them), CORS for the app's
// pages, and files on disk (files.ts). Bodies stream through; nothing holds a whole object in memory. Every
// answer says it comes from a stand-in (x-engram-stand-in: s3), and it refuses to start in production
// (docs/architecture.md#media-storage).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '@engram/kit/logger';
import type { OpenStandIn } from '@engram/kit/storage';
import { STAND_IN_DEFAULT_MAX_OBJECT_BYTES } from '@engram/kit/storage/config';
import type { StandInCredentials } from '@engram/kit/storage/stand-in-credentials';
import { decoded, parseQuery, signatureCheck } from './auth.js';
import { isBucketName, StandInFiles } from './files.js';
import {
  createBucket,
  deleteObject,
  deleteObjects,
  getObject,
  type HandlerContext,
  headBucket,
  listObjects,
  putObject,
  type Target,
} from './handlers.js';
import { requestId, S3Error, sendError } from './xml.js';

/** The header on every answer of the stand-in, so nobody mistakes it for S3. */
export const STAND_IN_HEADER = 'x-engram-stand-in';

export interface S3StandInOptions {
  /** Where buckets and objects live, one folder per bucket. */
  dir: string;
  /** 0 takes any free port. */
  port: number;
  /** The interface to listen on; 127.0.0.1 unless said otherwise. */
  host?: string;
  /** NODE_ENV: production refuses to start. */
  nodeEnv: string;
  /** The only credentials it accepts: the installation's (generateStandInCredentials), never a published pair. */
  credentials: StandInCredentials;
  /** Buckets that exist from the start. */
  buckets?: string[];
  maxObjectBytes?: number;
  /** Origins (scheme://host:port) whose pages may call the stand-in from a browser. */
  allowedOrigins?: string[];
  logger?: Logger;
}

export interface S3StandIn {
  /** http://127.0.0.1:<port> (the host it listens on). */
  url: string;
  port: number;
  close(): Promise<void>;
}

const CORS_METHODS = ['GET', 'PUT', 'HEAD'];
const CORS_HEADERS = new Set(['content-type', 'content-disposition', 'cache-control', 'range', 'if-none-match']);
const EXPOSED_HEADERS = ['ETag', 'Content-Length', 'Content-Range', 'x-amz-request-id', STAND_IN_HEADER].join(', ');

/** The bucket and key of a path-style request path; the key is empty for the bucket itself. */
function targetOf(rawPath: string, query: Target['query']): Target | undefined {
  const at = rawPath.indexOf('/', 1);
  const bucket = decoded(at < 0 ? rawPath.slice(1) : rawPath.slice(1, at));
  if (!bucket) return undefined;
  if (!isBucketName(bucket)) throw new S3Error(400, 'InvalidBucketName', 'The specified bucket is not valid.');
  return { bucket, key: at < 0 ? '' : decoded(rawPath.slice(at + 1)), query };
}

function preflight(req: IncomingMessage, res: ServerResponse, allowed: Set<string>) {
  const origin = req.headers.origin;
  const method = req.headers['access-control-request-method'];
  if (!origin || !method) {
    throw new S3Error(400, 'BadRequest', 'Insufficient information. Origin request header needed.');
  }
  const requested = (req.headers['access-control-request-headers'] ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  const headersAllowed = requested.every((name) => CORS_HEADERS.has(name) || name.startsWith('x-amz-'));
  if (!allowed.has(origin) || !CORS_METHODS.includes(method) || !headersAllowed) {
    throw new S3Error(403, 'AccessForbidden', 'CORSResponse: This CORS request is not allowed.');
  }
  res.writeHead(200, {
    'access-control-allow-origin': origin,
    'access-control-allow-methods': CORS_METHODS.join(', '),
    ...(requested.length > 0 && { 'access-control-allow-headers': requested.join(', ') }),
    'access-control-expose-headers': EXPOSED_HEADERS,
    'access-control-max-age': '3000',
    vary: 'Origin, Access-Control-Request-Headers, Access-Control-Request-Method',
  });
  res.end();
}

async function route(ctx: HandlerContext, req: IncomingMessage, res: ServerResponse, target: Target) {
  const method = req.method ?? 'GET';
  if (!target.key) {
    if (method === 'PUT') return createBucket(ctx, res, target);
    if (method === 'HEAD') return headBucket(ctx, res, target);
    if (method === 'GET' && target.query['list-type'] === '2') return listObjects(ctx, res, target);
    if (method === 'POST' && 'delete' in target.query) return deleteObjects(ctx, req, res, target);
  } else {
    if (method === 'PUT') return putObject(ctx, req, res, target);
    if (method === 'GET' || method === 'HEAD') return getObject(ctx, req, res, target);
    if (method === 'DELETE') return deleteObject(ctx, res, target);
  }
  throw new S3Error(501, 'NotImplemented', 'The stand-in does not implement this S3 operation.');
}

export async function startS3StandIn(options: S3StandInOptions): Promise<S3StandIn> {
  if (options.nodeEnv === 'production') {
    throw new Error('the S3 stand-in never runs in production: set MEDIA_S3_BUCKET (docs/architecture.md)');
  }
  const verifySignature = signatureCheck(options.credentials);
  const files = new StandInFiles(options.dir);
  for (const bucket of options.buckets ?? []) await files.createBucket(bucket);
  const allowedOrigins = new Set(options.allowedOrigins ?? []);
  const maxObjectBytes = options.maxObjectBytes ?? STAND_IN_DEFAULT_MAX_OBJECT_BYTES;

  async function handle(req: IncomingMessage, res: ServerResponse, waitsForContinue: boolean) {
    const [rawPath = '/', rawQuery = ''] = (req.url ?? '/').split(/\?(.*)/s);
    res.setHeader(STAND_IN_HEADER, 's3');
    res.setHeader('x-amz-request-id', requestId());
    const origin = req.headers.origin;
    if (origin && allowedOrigins.has(origin)) {
      res.setHeader('access-control-allow-origin', origin);
      res.setHeader('access-control-expose-headers', EXPOSED_HEADERS);
      res.setHeader('vary', 'Origin');
    }
    let continued = !waitsForContinue;
    const ctx: HandlerContext = {
      files,
      maxObjectBytes,
      proceed: () => {
        if (!continued) res.writeContinue();
        continued = true;
      },
    };
    try {
      if (req.method === 'OPTIONS') return preflight(req, res, allowedOrigins);
      const query = parseQuery(rawQuery);
      await verifySignature(req, rawPath, query);
      const target = targetOf(rawPath, query);
      if (!target) throw new S3Error(501, 'NotImplemented', 'The stand-in does not list buckets.');
      await route(ctx, req, res, target);
    } catch (error) {
      if (!(error instanceof S3Error)) options.logger?.error({ err: error, path: rawPath }, 'S3 stand-in failed');
      const s3Error =
        error instanceof S3Error ? error : new S3Error(500, 'InternalError', 'We encountered an internal error.');
      // A refused upload is not read on: the connection closes instead, as S3 closes it.
      if (!req.complete && !res.headersSent) res.setHeader('connection', 'close');
      sendError(res, s3Error, rawPath, req.method ?? 'GET');
    }
  }

  const server = createServer((req, res) => void handle(req, res, false));
  // An upload that asks first (Expect: 100-continue) is checked before its body is let in.
  server.on('checkContinue', (req, res) => void handle(req, res, true));
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host}:${port}`;
  options.logger?.warn(
    { url, dir: options.dir },
    'media storage runs on the local S3 stand-in (no MEDIA_S3_BUCKET): files stay on this machine, never use it in production',
  );
  return {
    url,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Whether the S3 stand-in answers on `port` of this machine (its header says so). */
async function isStandInAt(port: number): Promise<boolean> {
  try {
    const answer = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2_000) });
    return answer.headers.get(STAND_IN_HEADER) !== null;
  } catch {
    return false;
  }
}

/**
 * The stand-in a service's storage settings name (the kit's createObjectStore calls it): started here, or,
 * when a second replica on this machine finds the port taken by the stand-in the first one runs (a local
 * stack's cards-b), that one, the store of both as one bucket would be.
 */
export const openS3StandIn: OpenStandIn = async (settings, { nodeEnv, logger }) => {
  try {
    return await startS3StandIn({
      dir: settings.dir,
      port: settings.port,
      nodeEnv,
      credentials: settings.credentials,
      buckets: [settings.bucket],
      maxObjectBytes: settings.maxObjectBytes,
      allowedOrigins: settings.allowedOrigins,
      ...(logger && { logger }),
    });
  } catch (error) {
    if ((error as { code?: string }).code !== 'EADDRINUSE' || !(await isStandInAt(settings.port))) throw error;
    logger?.info({ port: settings.port }, 'media storage uses the S3 stand-in another process runs');
    return { url: `http://127.0.0.1:${settings.port}`, port: settings.port, close: async () => {} };
  }
};
