// The S3 stand-in's answers in S3's shapes: XML documents (errors, listings, batch deletes) and the
// S3Error a handler throws to answer with one of S3's error codes and statuses.
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';

/** An S3 error answer: `code` as S3 names it (NoSuchKey, SignatureDoesNotMatch…), `status` its HTTP status. */
export class S3Error extends Error {
  readonly status: number;
  readonly code: string;
  readonly extra: Record<string, string | number>;
  constructor(status: number, code: string, message: string, extra: Record<string, string | number> = {}) {
    super(message);
    this.name = 'S3Error';
    this.status = status;
    this.code = code;
    this.extra = extra;
  }
}

export const noSuchKey = (key: string) =>
  new S3Error(404, 'NoSuchKey', 'The specified key does not exist.', { Key: key });
export const noSuchBucket = (bucket: string) =>
  new S3Error(404, 'NoSuchBucket', 'The specified bucket does not exist', { BucketName: bucket });
export const accessDenied = (message = 'Access Denied') => new S3Error(403, 'AccessDenied', message);

export const xmlText = (value: string | number) =>
  String(value).replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** `<Name>value</Name>` for each entry, in order. */
export const xmlFields = (fields: Record<string, string | number | boolean | undefined>) =>
  Object.entries(fields)
    .filter((entry): entry is [string, string | number | boolean] => entry[1] !== undefined)
    .map(([name, value]) => `<${name}>${xmlText(String(value))}</${name}>`)
    .join('');

export const requestId = () => randomBytes(8).toString('hex').toUpperCase();

export function sendXml(res: ServerResponse, status: number, body: string) {
  res.writeHead(status, { 'content-type': 'application/xml' });
  res.end(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`);
}

/** S3's error document; a HEAD gets the status alone, as S3 sends it. */
export function sendError(res: ServerResponse, error: S3Error, resource: string, method: string) {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const id = res.getHeader('x-amz-request-id')?.toString() ?? requestId();
  if (method === 'HEAD') {
    res.writeHead(error.status, { 'x-amz-error-code': error.code }).end();
    return;
  }
  sendXml(
    res,
    error.status,
    `<Error>${xmlFields({ Code: error.code, Message: error.message, ...error.extra, Resource: resource, RequestId: id })}</Error>`,
  );
}

/** The text of each `<tag>…</tag>` in a small XML body (a DeleteObjects request), unescaped. */
export function xmlValues(xml: string, tag: string): string[] {
  const pattern = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g');
  return [...xml.matchAll(pattern)].map((match) =>
    (match[1] ?? '').replace(/&(#\d+|#x[0-9a-f]+|amp|lt|gt|quot|apos);/gi, (entity, name: string) => {
      const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
      if (name.startsWith('#x') || name.startsWith('#X'))
        return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
      if (name.startsWith('#')) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
      return named[name.toLowerCase()] ?? entity;
    }),
  );
}
