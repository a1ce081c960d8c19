// Keyset pages, the one way Engram's lists page: a page is read with one row more than it shows (so it knows
// whether a next page exists), and the cursor to the next page is the position of its last row in the list's
// order, opaque to clients (base64url of a JSON array of strings). A cursor made up, cut short or taken from
// another list is a client error with one message, never a query that fails in PostgreSQL.
import { isUuid } from '@engram/contracts/ids';
import { Invalid } from './errors.ts';

/** What every list answers a cursor it cannot read with. */
export const INVALID_CURSOR_MESSAGE = 'The cursor is not valid for this list.';

export const invalidCursor = () => new Invalid(INVALID_CURSOR_MESSAGE, 'INVALID_CURSOR');

/** The cursor of a position: its parts, in the list's order. */
export const encodeKeyset = (...parts: string[]): string => Buffer.from(JSON.stringify(parts)).toString('base64url');

/**
 * The `length` parts of a position `cursor` holds, each a non-empty string without NUL (PostgreSQL's text holds
 * none); throws invalidCursor() for anything else.
 */
export function decodeKeyset(cursor: string, length: number): string[] {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  const usable = (part: unknown): part is string => typeof part === 'string' && part.length > 0 && !part.includes('\0');
  if (!Array.isArray(parts) || parts.length !== length || !parts.every(usable)) throw invalidCursor();
  return parts;
}

/** A part that is compared with a uuid column; throws invalidCursor() for anything else. */
export function uuidPart(part: string): string {
  if (!isUuid(part)) throw invalidCursor();
  return part;
}

/** A part that is compared with a timestamp column (years 1 to 9999 are all a row holds); else invalidCursor(). */
export function timePart(part: string): Date {
  const date = new Date(part);
  const year = date.getUTCFullYear();
  if (Number.isNaN(date.getTime()) || year < 1 || year > 9999) throw invalidCursor();
  return date;
}

/** A page of `size` rows out of `rows`, read with one more than `size`, and the cursor of the next ('' at the end). */
export function pageOf<T>(rows: T[], size: number, cursorOf: (last: T) => string): { items: T[]; nextCursor: string } {
  const items = rows.slice(0, size);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > size && last !== undefined ? cursorOf(last) : '' };
}
