// The opaque cursors of the cards service's lists (@engram/kit/keyset): a card, file, import or export by its
// position (created_at, id) newest first; a tag by (name key, id) in name order.
import { decodeKeyset, encodeKeyset, pageOf as keysetPage, timePart, uuidPart } from '@engram/kit/keyset';

export interface CardPosition {
  createdAt: Date;
  id: string;
}

export const encodeCursor = (position: CardPosition): string =>
  encodeKeyset(position.createdAt.toISOString(), position.id);

export function decodeCursor(cursor: string): CardPosition {
  const [createdAt = '', id = ''] = decodeKeyset(cursor, 2);
  return { createdAt: timePart(createdAt), id: uuidPart(id) };
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
  const { items, nextCursor } = keysetPage(rows, pageSize, encodeCursor);
  return { page: items, nextCursor };
}

/** A tag's position in the tag list: its name key, then its id. */
export interface TagPosition {
  nameKey: string;
  id: string;
}

export const encodeTagCursor = (position: TagPosition): string => encodeKeyset(position.nameKey, position.id);

export function decodeTagCursor(cursor: string): TagPosition {
  const [nameKey = '', id = ''] = decodeKeyset(cursor, 2);
  return { nameKey, id: uuidPart(id) };
}
