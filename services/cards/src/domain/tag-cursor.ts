// The opaque cursor of the tag list: the position (name key, id) of the last tag of a page.
import { Invalid } from '@engram/kit/errors';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function encodeTagCursor(position: { nameKey: string; id: string }): string {
  return Buffer.from(JSON.stringify([position.nameKey, position.id])).toString('base64url');
}

export function decodeTagCursor(cursor: string): { nameKey: string; id: string } {
  try {
    const [nameKey, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof nameKey !== 'string' || typeof id !== 'string' || !UUID.test(id)) throw new Error('bad cursor');
    return { nameKey, id };
  } catch {
    throw new Invalid('The cursor is not valid for this list.', 'INVALID_CURSOR');
  }
}
