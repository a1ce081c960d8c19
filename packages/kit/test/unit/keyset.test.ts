// Every list pages the same way: a cursor is the position of a page's last row, opaque to clients, and one a
// client made up is refused with one message before it can reach PostgreSQL.
import { describe, expect, it } from 'vitest';
import { decodeKeyset, encodeKeyset, pageOf, timePart, uuidPart } from '../../src/keyset.ts';

const forge = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const refused = expect.objectContaining({
  message: 'The cursor is not valid for this list.',
  reason: 'INVALID_CURSOR',
});

describe('a keyset cursor', () => {
  it('gives back the parts of the position it was made from', () => {
    expect(decodeKeyset(encodeKeyset('decks', '2026-11-22T10:11:12.345Z', 'b'), 3)).toEqual([
      'decks',
      '2026-11-22T10:11:12.345Z',
      'b',
    ]);
  });

  it.each([
    ['text that is not base64 JSON', 'not a cursor'],
    ['too few parts', forge(['a'])],
    ['too many parts', forge(['a', 'b', 'c'])],
    ['an empty part', forge(['a', ''])],
    ['a part holding NUL, which PostgreSQL text cannot', forge(['a', 'b\u0000'])],
    ['a number', forge(['a', 42])],
    ['an object', forge({ a: 'b' })],
  ])('refuses %s', (_what, cursor) => {
    expect(() => decodeKeyset(cursor, 2)).toThrowError(refused);
  });

  it('takes a time PostgreSQL can hold and a UUID, and refuses anything else', () => {
    expect(timePart('2026-11-22T10:11:12.345Z')).toEqual(new Date('2026-11-22T10:11:12.345Z'));
    expect(() => timePart('yesterday')).toThrowError(refused);
    expect(() => timePart('+010000-01-01T00:00:00.000Z')).toThrowError(refused);
    expect(uuidPart('0b9c3f4e-8d2a-4c1b-9e7f-6a5d4c3b2a19')).toBe('0b9c3f4e-8d2a-4c1b-9e7f-6a5d4c3b2a19');
    expect(() => uuidPart("1' or '1'='1")).toThrowError(refused);
  });
});

describe('a page', () => {
  it('shows the rows asked for and points past the last one when a row more was read', () => {
    expect(pageOf([1, 2, 3], 2, (last) => `after ${last}`)).toEqual({ items: [1, 2], nextCursor: 'after 2' });
  });

  it('has no next page when no row more was read', () => {
    expect(pageOf([1, 2], 2, (last) => `after ${last}`)).toEqual({ items: [1, 2], nextCursor: '' });
    expect(pageOf([], 2, (last) => `after ${last}`)).toEqual({ items: [], nextCursor: '' });
  });
});
