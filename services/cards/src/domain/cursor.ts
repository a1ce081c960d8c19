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
