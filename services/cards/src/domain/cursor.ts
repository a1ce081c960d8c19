// The opaque cursor of the card list: the position (created_at, id) of the last card of a page.
// Clients treat it as a string; a malformed one is a client error, not a crash.
import { Invalid } from '@engram/kit/errors';

export interface CardPosition {
  createdAt: Date;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function encodeCursor(position: CardPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt.toISOString(), position.id])).toString('base64url');
}

export function decodeCursor(cursor: string): CardPosition {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    const date = new Date(String(createdAt));
    // The id is compared with a uuid column: anything else would fail in PostgreSQL, not here.
    if (typeof id !== 'string' || !UUID.test(id) || Number.isNaN(date.getTime())) throw new Error('bad cursor');
    return { createdAt: date, id };
  } catch {
    throw new Invalid('The cursor is not valid for this list.', 'INVALID_CURSOR');
  }
}

/** The rows after `cursor`'s position in newest-first order (nothing to add for the first page). */
export function newerFirstAfter(cursor: string): {
  OR?: ({ createdAt: { lt: Date } } | { createdAt: Date; id: { lt: string } })[];
} {
  if (!cursor) return {};
  const after = decodeCursor(cursor);
  return { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] };
}

/** Newest first, the order the cursor follows. */
export const NEWEST_FIRST = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];

/** A page of `pageSize` from rows read with one more, and the cursor of the next page ('' when it is the last). */
export function pageOf<T extends CardPosition>(rows: T[], pageSize: number): { page: T[]; nextCursor: string } {
  const page = rows.slice(0, pageSize);
  const last = page.at(-1);
  return { page, nextCursor: rows.length > pageSize && last ? encodeCursor(last) : '' };
}
