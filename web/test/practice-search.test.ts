// Spec §5: /practice/session takes optional tags (absent when empty); /practice/done requires cardCount
// and takes optional again/hard/good/easy, all whole numbers.
import { describe, expect, it } from 'vitest';
import { validateDoneSearch, validateSessionSearch } from '../src/lib/practice-search.ts';

describe('practice search params', () => {
  it('keeps the tags of a session, and drops an empty or missing list', () => {
    expect(validateSessionSearch({ tags: ['a', 'b'] })).toEqual({ tags: ['a', 'b'] });
    expect(validateSessionSearch({ tags: [] })).toEqual({});
    expect(validateSessionSearch({})).toEqual({});
  });

  it('refuses tags that are not a list of strings', () => {
    expect(() => validateSessionSearch({ tags: 'a' })).toThrow();
    expect(() => validateSessionSearch({ tags: [1] })).toThrow();
  });

  it('reads the results counts, numbers or numeric text', () => {
    expect(validateDoneSearch({ cardCount: 3, again: '1', good: 2 })).toEqual({ cardCount: 3, again: 1, good: 2 });
    expect(validateDoneSearch({ cardCount: 0 })).toEqual({ cardCount: 0 });
  });

  it('refuses results without a card count, or with counts that are not whole numbers from 0', () => {
    for (const search of [
      {},
      { cardCount: 'abc' },
      { cardCount: -1 },
      { cardCount: 1.5 },
      { cardCount: 2, hard: 'x' },
    ]) {
      expect(() => validateDoneSearch(search)).toThrow();
    }
  });
});
