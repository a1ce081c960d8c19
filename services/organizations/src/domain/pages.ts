// The pages of the organizations service's lists: their size and the opaque cursor to the next. A cursor
// is the position of a page's last row in its list's order and names its list, so a cursor made up or
// taken from another list is a client error with a clear message, never a query.
import { MAX_PAGE_SIZE } from '@engram/contracts/cards';
import { SHARED_DECK_PAGE_SIZE } from '@engram/contracts/shared-decks';
import { Invalid } from '@engram/kit/errors';
import { decodeKeyset, encodeKeyset, invalidCursor, timePart, uuidPart } from '@engram/kit/keyset';

type List = 'decks' | 'assignments' | 'members';

/** The rows of one page: 0 (left out) is the default, anything outside 1..MAX_PAGE_SIZE is refused. */
export function pageSizeOf(requested: number): number {
  if (requested === 0) return SHARED_DECK_PAGE_SIZE;
  if (!Number.isInteger(requested) || requested < 1 || requested > MAX_PAGE_SIZE) {
    throw new Invalid(`Page size must be between 1 and ${MAX_PAGE_SIZE}.`, 'INVALID_PAGE_SIZE');
  }
  return requested;
}

const encode = (list: List, ...position: string[]): string => encodeKeyset(list, ...position);

/** The `length` parts of `cursor`'s position, when it is a cursor of `list`. */
function decode(list: List, cursor: string, length: number): string[] {
  const [of, ...position] = decodeKeyset(cursor, length + 1);
  if (of !== list) throw invalidCursor();
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
  return { at: timePart(at), id: uuidPart(id) };
}

/** The members' list is ordered by user id. */
export const memberCursor = (userId: string) => encode('members', userId);
export const decodeMemberCursor = (cursor: string): string => decode('members', cursor, 1)[0] as string;

export { pageOf } from '@engram/kit/keyset';
