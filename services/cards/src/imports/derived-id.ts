// Ids an import derives from what it imports instead of drawing at random, so importing the same thing
// again (or an import started over after its replica died) lands on the same row or object.
import { createHash } from 'node:crypto';

/** A UUID (version 8: made by us) from the SHA-256 of `parts`; the same parts always give the same id. */
export function derivedId(...parts: (string | number)[]): string {
  const bytes = createHash('sha256').update(parts.join('\u0000')).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
