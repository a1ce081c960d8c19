// docs/product.md#search-params: /practice/session takes optional tags (absent when empty); /practice/done requires
// cardCount and takes optional again/hard/good/easy, all whole numbers; /dashboard takes the card search text q;
// /settings the section shown. A malformed optional param (a hand-edited link) is corrected, never an error screen.
import { settingsSearch } from '@engram/contracts/search';
import { describe, expect, it } from 'vitest';
import { validateDashboardSearch, validateDoneSearch, validateSessionSearch } from '../../src/routes/search-params.ts';

const TAG_A = '0b6c3f4e-1d2a-4c5b-8e7f-9a0b1c2d3e4f';
const TAG_B = '5f4e3d2c-1b0a-4987-8654-3210fedcba98';

describe('practice search params', () => {
  it('keeps the tags of a session, and drops an empty or missing list', () => {
    expect(validateSessionSearch({ tags: [TAG_A, TAG_B] })).toEqual({ tags: [TAG_A, TAG_B] });
    expect(validateSessionSearch({ tags: [] })).toEqual({});
    expect(validateSessionSearch({})).toEqual({});
  });

  it('corrects malformed tags instead of refusing them: one id becomes a list, what is not a tag id goes', () => {
    expect(validateSessionSearch({ tags: TAG_A })).toEqual({ tags: [TAG_A] });
    expect(validateSessionSearch({ tags: [1, TAG_A, 'not-an-id', { a: 1 }, TAG_A] })).toEqual({ tags: [TAG_A] });
    expect(validateSessionSearch({ tags: 'a' })).toEqual({});
    expect(validateSessionSearch({ tags: [1] })).toEqual({});
    expect(validateSessionSearch({ tags: { x: 1 } })).toEqual({});
    expect(validateSessionSearch({ tags: null })).toEqual({});
  });

  it('reads the results counts, numbers or numeric text', () => {
    expect(validateDoneSearch({ cardCount: 3, again: '1', good: 2 })).toEqual({ cardCount: 3, again: 1, good: 2 });
    expect(validateDoneSearch({ cardCount: 0 })).toEqual({ cardCount: 0 });
  });

  it('drops a rating count that is not a whole number from 0, keeping the rest', () => {
    expect(validateDoneSearch({ cardCount: 2, hard: 'x', good: 2, easy: -1 })).toEqual({ cardCount: 2, good: 2 });
  });

  it('refuses results without a card count, or with one that is not a whole number from 0', () => {
    for (const search of [{}, { cardCount: 'abc' }, { cardCount: -1 }, { cardCount: 1.5 }]) {
      expect(() => validateDoneSearch(search)).toThrow();
    }
  });
});

describe('dashboard search params', () => {
  it('keeps the card search text, trimmed', () => {
    expect(validateDashboardSearch({ q: '  café ' })).toEqual({ q: 'café' });
    expect(validateDashboardSearch({})).toEqual({});
  });

  it('drops a malformed value explicitly, so the raw one the router holds never shows through', () => {
    expect(Object.hasOwn(validateDashboardSearch({ q: { a: 1 } }), 'q')).toBe(true);
    expect(validateDashboardSearch({ q: { a: 1 } }).q).toBeUndefined();
    expect(Object.hasOwn(validateSessionSearch({ tags: [1] }), 'tags')).toBe(true);
    expect(Object.hasOwn(validateDoneSearch({ cardCount: 1, hard: 'x' }), 'hard')).toBe(true);
  });

  it('keeps the id of the invitation to show first, and drops anything that is not an id', () => {
    const id = '0b7c9a52-3f6e-4c1d-9a8e-2f4b6d8c0e1a';
    expect(validateDashboardSearch({ invitation: id })).toEqual({ invitation: id });
    for (const invitation of ['', 'a b', '<script>', 42, ['x'], 'x'.repeat(65)]) {
      expect(validateDashboardSearch({ invitation })).toEqual({});
    }
  });

  it('corrects a malformed search text: a number becomes its text, anything else is dropped', () => {
    expect(validateDashboardSearch({ q: 42 })).toEqual({ q: '42' });
    expect(validateDashboardSearch({ q: ['a', 'b'] })).toEqual({});
    expect(validateDashboardSearch({ q: { a: 1 } })).toEqual({});
    expect(validateDashboardSearch({ q: true })).toEqual({});
    expect(validateDashboardSearch({ q: '   ' })).toEqual({});
    expect(validateDashboardSearch({ q: 'x'.repeat(500) })).toEqual({ q: 'x'.repeat(200) });
  });
});

describe('settings search params', () => {
  it('keeps a section the screen has, and drops anything else (the day shows)', () => {
    for (const section of ['day', 'scheduling', 'presets', 'device'] as const) {
      expect(settingsSearch.parse({ section })).toEqual({ section });
    }
    for (const section of ['Presets', 'nonsense', '', 3, ['presets'], null, undefined]) {
      expect(settingsSearch.parse({ section })).toEqual({});
    }
  });
});
