// Decodes S3's aws-chunked content encoding: the AWS SDK streams an upload of known length as
// `<hex size>[;chunk-signature=…]\r\n<bytes>\r\n … 0\r\n<trailer>:<value>\r\n\r\n`, the trailer carrying the
// checksum of the whole body (x-amz-checksum-crc32). The stand-in passes the bytes on as they come and
// keeps the trailers for the check once the body is complete.
import { Transform, type TransformCallback } from 'node:stream';
import { S3Error } from './xml.js';

const LF = 10;
const CR = 13;
const MAX_LINE = 4096;

const malformed = () => new S3Error(400, 'InvalidRequest', 'The aws-chunked body of the request is malformed.');

export class AwsChunkedDecoder extends Transform {
  /** Trailer name (lower case) → value, once the body is complete. */
  readonly trailers: Record<string, string> = {};
  private state: 'size' | 'data' | 'data-end' | 'trailer' | 'done' = 'size';
  private line = '';
  private remaining = 0;
  private lineEndLeft = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    try {
      let at = 0;
      while (at < chunk.length) {
        if (this.state === 'data') {
          const take = Math.min(this.remaining, chunk.length - at);
          this.push(chunk.subarray(at, at + take));
          at += take;
          this.remaining -= take;
          if (this.remaining === 0) [this.state, this.lineEndLeft] = ['data-end', 2];
        } else if (this.state === 'data-end') {
          if (chunk[at] !== (this.lineEndLeft === 2 ? CR : LF)) throw malformed();
          at += 1;
          this.lineEndLeft -= 1;
          if (this.lineEndLeft === 0) this.state = 'size';
        } else if (this.state === 'done') {
          throw malformed();
        } else {
          const end = chunk.indexOf(LF, at);
          this.line += chunk.toString('latin1', at, end < 0 ? chunk.length : end + 1);
          at = end < 0 ? chunk.length : end + 1;
          if (this.line.length > MAX_LINE) throw malformed();
          if (end >= 0) this.onLine(this.line.replace(/\r?\n$/, ''));
        }
      }
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }

  override _flush(callback: TransformCallback) {
    callback(this.state === 'done' ? undefined : new S3Error(400, 'IncompleteBody', 'The request body ended early.'));
  }

  private onLine(line: string) {
    this.line = '';
    if (this.state === 'size') {
      const hex = line.split(';')[0] ?? '';
      if (!/^[0-9a-fA-F]{1,16}$/.test(hex)) throw malformed();
      this.remaining = Number.parseInt(hex, 16);
      this.state = this.remaining === 0 ? 'trailer' : 'data';
      return;
    }
    if (line === '') {
      this.state = 'done';
      return;
    }
    const colon = line.indexOf(':');
    if (colon < 1) throw malformed();
    this.trailers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
}
