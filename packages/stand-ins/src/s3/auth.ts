// The S3 stand-in's check of AWS Signature Version 4, in both of S3's forms: the Authorization header
// (the SDK's own calls) and the query string (presigned URLs a browser opens). The request is signed again
// with the installation's credentials by the SDK's signer (@smithy/signature-v4) and the signatures
// compared, so a tampered, foreign or expired request is refused with the error S3 gives.
import { createHash, createHmac, type Hash, type Hmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { assertStandInCredentials, type StandInCredentials } from '@engram/kit/storage/stand-in-credentials';
import { SignatureV4 } from '@smithy/signature-v4';
import { accessDenied, S3Error } from './xml.js';

const ALGORITHM = 'AWS4-HMAC-SHA256';
/** S3 refuses a header-signed request whose time is further than this from its clock. */
const MAX_SKEW_MS = 15 * 60_000;
const MAX_PRESIGNED_SECONDS = 7 * 24 * 60 * 60;

type Query = Record<string, string | string[]>;

type Data = string | ArrayBuffer | ArrayBufferView;
const bytes = (data: Data) =>
  typeof data === 'string'
    ? data
    : ArrayBuffer.isView(data)
      ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
      : new Uint8Array(data);

/** The signer's hash, on node:crypto (an HMAC when given a key). */
class Sha256 {
  private hash: Hash | Hmac;
  private readonly secret: string | Uint8Array | undefined;
  constructor(secret?: Data) {
    this.secret = secret === undefined ? undefined : bytes(secret);
    this.hash = this.secret === undefined ? createHash('sha256') : createHmac('sha256', this.secret);
  }
  update(data: Data) {
    this.hash.update(bytes(data));
  }
  digest() {
    return Promise.resolve(new Uint8Array(this.hash.digest()));
  }
  reset() {
    this.hash = this.secret === undefined ? createHash('sha256') : createHmac('sha256', this.secret);
  }
}

/** decodeURIComponent, answering a malformed escape as S3 does. */
export const decoded = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new S3Error(400, 'InvalidURI', "Couldn't parse the specified URI.");
  }
};

/** The query string, decoded; a name given twice keeps every value. */
export function parseQuery(raw: string): Query {
  const query: Query = {};
  for (const part of raw.split('&').filter(Boolean)) {
    const at = part.indexOf('=');
    const name = decoded(at < 0 ? part : part.slice(0, at));
    const value = at < 0 ? '' : decoded(part.slice(at + 1).replace(/\+/g, '%20'));
    const before = query[name];
    query[name] = before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
  }
  return query;
}

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** 20250102T030405Z as a Date, or undefined when malformed. */
function amzDate(value: string | undefined): Date | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value ?? '');
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  return new Date(Date.UTC(y as number, (mo as number) - 1, d, h, mi, s));
}

interface Scope {
  accessKeyId: string;
  region: string;
  service: string;
}

function scopeOf(credential: string, expectedKeyId: string): Scope {
  const [accessKeyId = '', , region = '', service = '', terminator = ''] = credential.split('/');
  if (!region || service !== 's3' || terminator !== 'aws4_request') {
    throw new S3Error(400, 'AuthorizationHeaderMalformed', 'The authorization header is malformed.');
  }
  if (accessKeyId !== expectedKeyId) {
    throw new S3Error(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.', {
      AWSAccessKeyId: accessKeyId,
    });
  }
  return { accessKeyId, region, service };
}

const headerText = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(',') : (value ?? ''));

function signedHeadersOf(req: IncomingMessage, names: string[]): Record<string, string> {
  if (!names.includes('host')) throw accessDenied('There were headers present in the request which were not signed');
  return Object.fromEntries(names.map((name) => [name, headerText(req.headers[name])]));
}

function same(expected: string, given: string) {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  if (a.length !== b.length || !timingSafeEqual(a, b)) {
    throw new S3Error(
      403,
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    );
  }
}

/** What checks one request: throws the S3Error S3 would answer with unless it is signed with `credentials`. */
export type SignatureCheck = (req: IncomingMessage, path: string, query: Query, now?: Date) => Promise<void>;

/** The check of a stand-in whose only credentials are `credentials`. */
export function signatureCheck(credentials: StandInCredentials): SignatureCheck {
  assertStandInCredentials(credentials);
  const check: Check = {
    accessKeyId: credentials.accessKeyId,
    signer: new SignatureV4({
      credentials,
      region: 'us-east-1',
      service: 's3',
      sha256: Sha256,
      // S3 signs the path as sent, without normalising or escaping it again.
      uriEscapePath: false,
      applyChecksum: false,
    }),
  };
  return async (req, path, query, now = new Date()) => {
    const authorization = req.headers.authorization;
    if (authorization) return verifyHeader(check, req, path, query, authorization, now);
    if (single(query['X-Amz-Algorithm']) !== undefined) return verifyQuery(check, req, path, query, now);
    throw accessDenied();
  };
}

interface Check {
  accessKeyId: string;
  signer: SignatureV4;
}

async function verifyHeader(
  { accessKeyId, signer }: Check,
  req: IncomingMessage,
  path: string,
  query: Query,
  authorization: string,
  now: Date,
) {
  const match = /^AWS4-HMAC-SHA256 Credential=([^,\s]+),\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]{64})$/.exec(
    authorization,
  );
  if (!match) throw new S3Error(400, 'AuthorizationHeaderMalformed', 'The authorization header is malformed.');
  const [, credential = '', signedNames = '', signature = ''] = match;
  const scope = scopeOf(credential, accessKeyId);
  const signingDate = amzDate(headerText(req.headers['x-amz-date']));
  if (!signingDate) throw accessDenied('AWS authentication requires a valid Date or x-amz-date header');
  if (Math.abs(now.getTime() - signingDate.getTime()) > MAX_SKEW_MS) {
    throw new S3Error(
      403,
      'RequestTimeTooSkewed',
      'The difference between the request time and the current time is too large.',
    );
  }
  if (!req.headers['x-amz-content-sha256']) {
    throw new S3Error(400, 'InvalidRequest', 'Missing required header for this request: x-amz-content-sha256');
  }
  const names = signedNames.split(';');
  const signed = await signer.sign(
    {
      method: req.method ?? 'GET',
      protocol: 'http:',
      hostname: headerText(req.headers.host),
      path,
      query,
      headers: signedHeadersOf(req, names),
    },
    { signingDate, signingRegion: scope.region, signingService: 's3', signableHeaders: new Set(names) },
  );
  same(/Signature=([0-9a-f]+)/.exec(String(signed.headers.authorization))?.[1] ?? '', signature);
}

async function verifyQuery(
  { accessKeyId, signer }: Check,
  req: IncomingMessage,
  path: string,
  query: Query,
  now: Date,
) {
  const parameter = (name: string) => single(query[name]);
  if (parameter('X-Amz-Algorithm') !== ALGORITHM) {
    throw new S3Error(400, 'AuthorizationQueryParametersError', 'X-Amz-Algorithm only supports "AWS4-HMAC-SHA256"');
  }
  const scope = scopeOf(parameter('X-Amz-Credential') ?? '', accessKeyId);
  const signingDate = amzDate(parameter('X-Amz-Date'));
  const expiresIn = Number(parameter('X-Amz-Expires'));
  const signature = parameter('X-Amz-Signature') ?? '';
  const signedNames = (parameter('X-Amz-SignedHeaders') ?? '').split(';');
  if (!signingDate || !Number.isInteger(expiresIn) || expiresIn < 1 || expiresIn > MAX_PRESIGNED_SECONDS) {
    throw new S3Error(
      400,
      'AuthorizationQueryParametersError',
      'X-Amz-Date must be a date and X-Amz-Expires a number of seconds between 1 and 604800',
    );
  }
  if (signingDate.getTime() - now.getTime() > MAX_SKEW_MS) throw accessDenied('Request is not valid yet');
  const expires = new Date(signingDate.getTime() + expiresIn * 1000);
  if (expires.getTime() < now.getTime()) {
    throw new S3Error(403, 'AccessDenied', 'Request has expired', {
      'X-Amz-Expires': expiresIn,
      Expires: expires.toISOString(),
      ServerTime: now.toISOString(),
    });
  }
  const unsigned = Object.fromEntries(Object.entries(query).filter(([name]) => name !== 'X-Amz-Signature'));
  const presigned = await signer.presign(
    {
      method: req.method ?? 'GET',
      protocol: 'http:',
      hostname: headerText(req.headers.host),
      path,
      query: unsigned,
      // A presigned URL's payload is never signed; the header only tells the signer so.
      headers: { ...signedHeadersOf(req, signedNames), 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' },
    },
    {
      signingDate,
      expiresIn,
      signingRegion: scope.region,
      signingService: 's3',
      signableHeaders: new Set(signedNames),
      unsignableHeaders: new Set(['x-amz-content-sha256']),
      unhoistableHeaders: new Set([...signedNames, 'x-amz-content-sha256']),
    },
  );
  same(String(presigned.query?.['X-Amz-Signature']), signature);
}
