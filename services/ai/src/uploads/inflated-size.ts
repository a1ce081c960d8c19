// How much a PDF's compressed streams unpack to, counted before PDF.js is let near the file, so a
// decompression bomb (a few MB of FlateDecode that inflate to GBs) is refused by its size, not by running
// out of memory. Each zlib stream after a `stream` keyword is inflated and counted chunk by chunk, never
// kept; images are skipped (text extraction never decodes them). Streams this scan cannot see (other
// filters, encrypted or nested ones) are left to the reading process's memory and time limits.
import { createInflate } from 'node:zlib';

const STREAM = Buffer.from('stream');
/** How far before `stream` its dictionary is looked for (a dictionary is rarely longer). */
const DICTIONARY_WINDOW = 2048;

/** A zlib header (RFC 1950): deflate, and a check value that holds. */
function isZlibHeader(data: Uint8Array, at: number): boolean {
  const cmf = data[at];
  const flg = data[at + 1];
  return cmf !== undefined && flg !== undefined && (cmf & 0x0f) === 8 && (cmf * 256 + flg) % 31 === 0;
}

/** Where the data after `stream` and its end of line begins, or undefined when this is not a stream start. */
function streamStart(data: Buffer, keyword: number): number | undefined {
  if (keyword >= 3 && data.subarray(keyword - 3, keyword).toString('latin1') === 'end') return undefined;
  const at = keyword + STREAM.length;
  if (data[at] === 0x0d && data[at + 1] === 0x0a) return at + 2;
  if (data[at] === 0x0a || data[at] === 0x0d) return at + 1;
  return undefined;
}

function isImage(data: Buffer, keyword: number): boolean {
  const before = data.subarray(Math.max(0, keyword - DICTIONARY_WINDOW), keyword).toString('latin1');
  const dictionary = before.slice(before.lastIndexOf('obj') + 1);
  return /\/Subtype\s*\/Image\b/.test(dictionary);
}

/** The bytes one zlib stream inflates to, stopping once past `limit`; undefined when it is not one. */
async function inflatedLength(data: Uint8Array, limit: number): Promise<number | undefined> {
  const inflate = createInflate();
  inflate.end(data);
  let length = 0;
  try {
    for await (const chunk of inflate) {
      length += (chunk as Buffer).length;
      if (length > limit) break;
    }
    return length;
  } catch {
    // Damaged or not deflate after all: PDF.js decides what to make of it.
    return length > 0 ? length : undefined;
  } finally {
    inflate.destroy();
  }
}

/** The total the file's zlib streams inflate to, or more than `limit` as soon as it is passed. */
export async function inflatedSize(content: Uint8Array, limit: number): Promise<number> {
  const data = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  let total = 0;
  for (let keyword = data.indexOf(STREAM); keyword !== -1; keyword = data.indexOf(STREAM, keyword + 1)) {
    const start = streamStart(data, keyword);
    if (start === undefined || !isZlibHeader(data, start) || isImage(data, keyword)) continue;
    total += (await inflatedLength(data.subarray(start), limit - total)) ?? 0;
    if (total > limit) return total;
  }
  return total;
}
