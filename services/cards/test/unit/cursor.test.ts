// The card list's cursor is opaque to clients: what the service hands out comes back as the same
// position, and anything a client makes up is refused with a clear error instead of reaching the database.
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../src/domain/cursor.js';

const position = { createdAt: new Date('2026-11-22T10:11:12.345Z'), id: '0b9c3f4e-8d2a-4c1b-9e7f-6a5d4c3b2a19' };
const forge = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('the card list cursor', () => {
  it('decodes to the position it was made from, to the millisecond', () => {
    expect(decodeCursor(encodeCursor(position))).toEqual(position);
  });

  it('is a URL-safe string that does not spell out the position', () => {
    const cursor = encodeCursor(position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(cursor).not.toContain(position.id);
  });

  it.each([
    ['text that is not base64 JSON', 'not a cursor'],
    ['an empty array', forge([])],
    ['an object instead of a pair', forge({ createdAt: position.createdAt, id: position.id })],
    ['a date that is not one', forge(['yesterday', position.id])],
    [
      'an id that is not a UUID (it would fail in PostgreSQL)',
      forge([position.createdAt.toISOString(), "1' or '1'='1"]),
    ],
    ['a number as the id', forge([position.createdAt.toISOString(), 42])],
    ['JSON null', forge(null)],
  ])('refuses %s as an invalid argument with a clear message', (_what, cursor) => {
    expect(() => decodeCursor(cursor)).toThrowError(
      expect.objectContaining({ message: 'The cursor is not valid for this list.', reason: 'INVALID_CURSOR' }),
    );
  });
});
