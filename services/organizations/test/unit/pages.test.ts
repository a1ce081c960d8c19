// The cursors of the organizations service's lists are opaque to clients: what a list hands out comes
// back as the same position, and anything else (made up, or another list's) is refused with a clear
// error before it reaches the database.
import { describe, expect, it } from 'vitest';
import {
  decodeMemberCursor,
  decodeTimedCursor,
  memberCursor,
  pageOf,
  pageSizeOf,
  timedCursor,
} from '../../src/domain/pages.js';

const position = { at: new Date('2026-11-22T10:11:12.345Z'), id: '0b9c3f4e-8d2a-4c1b-9e7f-6a5d4c3b2a19' };
const forge = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const refused = expect.objectContaining({
  message: 'The cursor is not valid for this list.',
  reason: 'INVALID_CURSOR',
});

describe('the cursors of decks, assignments and members', () => {
  it('decode to the position they were made from', () => {
    expect(decodeTimedCursor('decks', timedCursor('decks', position))).toEqual(position);
    expect(decodeMemberCursor(memberCursor('user-42'))).toBe('user-42');
  });

  it.each([
    ['text that is not base64 JSON', 'not a cursor'],
    ['another list’s cursor', timedCursor('assignments', position)],
    ['a members cursor', memberCursor('user-42')],
    ['a position without its list', forge([position.at.toISOString(), position.id])],
    ['a date that is not one', forge(['decks', 'yesterday', position.id])],
    ['a year PostgreSQL cannot hold', forge(['decks', '-271821-04-20T00:00:00.000Z', position.id])],
    ['an id that is not a UUID', forge(['decks', position.at.toISOString(), "1' or '1'='1"])],
    ['a number as the id', forge(['decks', position.at.toISOString(), 42])],
    ['JSON null', forge(null)],
  ])('refuses %s for the deck list', (_what, cursor) => {
    expect(() => decodeTimedCursor('decks', cursor)).toThrowError(refused);
  });

  it('refuses a member cursor with a NUL, which PostgreSQL text cannot hold', () => {
    expect(() => decodeMemberCursor(forge(['members', 'a\u0000b']))).toThrowError(refused);
  });
});

describe('a page', () => {
  it('is 50 rows when the caller does not say, up to 100 when they do, and refuses more', () => {
    expect(pageSizeOf(0)).toBe(50);
    expect(pageSizeOf(100)).toBe(100);
    for (const size of [101, -1, 2.5]) {
      expect(() => pageSizeOf(size)).toThrowError(
        expect.objectContaining({ message: 'Page size must be between 1 and 100.', reason: 'INVALID_PAGE_SIZE' }),
      );
    }
  });

  it('has a next cursor only when a row beyond it was read', () => {
    expect(pageOf([1, 2, 3], 2, String)).toEqual({ items: [1, 2], nextCursor: '2' });
    expect(pageOf([1, 2], 2, String)).toEqual({ items: [1, 2], nextCursor: '' });
  });
});
