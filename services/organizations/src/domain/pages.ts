// The pages of the organizations service's lists: their size and the opaque cursor to the next. A cursor
// is the position of a page's last row in its list's order and names its list, so a cursor made up or
// taken from another list is a client error with a clear message, never a query.
import { MAX_PAGE_SIZE } from '@engram/contracts/cards';
import { SHARED_DECK_PAGE_SIZE, SHARED_DECK_REASONS } from '@engram/contracts/shared-decks';
import { Invalid } from '@engram/kit/errors';

type List = 'decks' | 'assignments' | 'members';

/** The rows of one page: 0 (left out) is the default, anything outside 1..MAX_PAGE_SIZE is refused. */
export function pageSizeOf(requested: number): number {
  if (requested === 0) return SHARED_DECK_PAGE_SIZE;
  if (!Number.isInteger(requested) || requested < 1 || requested > MAX_PAGE_SIZE) {
    throw new Invalid(`Page size must be between 1 and ${MAX_PAGE_SIZE}.`, 'INVALID_PAGE_SIZE');
  }
  return requested;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const invalidCursor = () => new Invalid('The cursor is not valid for this list.', SHARED_DECK_REASONS.invalidCursor);

function encode(list: List, ...position: string[]): string {
  return Buffer.from(JSON.stringify([list, ...position])).toString('base64url');
}

function decode(list: List, cursor: string, length: number): string[] {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (!Array.isArray(parts) || parts.length !== length + 1 || parts[0] !== list) throw invalidCursor();
  const position = parts.slice(1);
  // PostgreSQL text holds no NUL: one would fail in the database, not here.
  const usable = (part: unknown): part is string => typeof part === 'string' && part.length > 0 && !part.includes('\0');
  if (!position.every(usable)) throw invalidCursor();
  return position;
}

/** A row of a list ordered by a time, then by its id (a uuid). */
export interface TimedPosition {
  at: Date;
  id: string;
}

export function timedCursor(list: 'decks' | 'assignments', position: TimedPosition): string {
  return encode(list, position.at.toISOString(), position.id);
}

export function decodeTimedCursor(list: 'decks' | 'assignments', cursor: string): TimedPosition {
  const [at = '', id = ''] = decode(list, cursor, 2);
  const date = new Date(at);
  // The id is compared with a uuid column, the time with a timestamp (years 1 to 9999 are all any row
  // holds): anything else would fail in PostgreSQL, not here.
  const year = date.getUTCFullYear();
  if (Number.isNaN(date.getTime()) || year < 1 || year > 9999 || !UUID.test(id)) throw invalidCursor();
  return { at: date, id };
}

/** The members' list is ordered by user id. */
export const memberCursor = (userId: string) => encode('members', userId);
export const decodeMemberCursor = (cursor: string): string => decode('members', cursor, 1)[0] as string;

/** A page of `size` rows out of `rows`, read with one more than `size` to know whether a next page exists. */
export function pageOf<T>(rows: T[], size: number, cursorOf: (last: T) => string) {
  const items = rows.slice(0, size);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > size && last !== undefined ? cursorOf(last) : '' };
}
