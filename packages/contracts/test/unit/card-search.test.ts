// Anki's search syntax (https://docs.ankiweb.net/searching.html) as the Browse screen and AnkiConnect's findNotes and
// findCards read it: the manual's own examples become the tree the search runs; a malformed search is refused with
// a message and the place of the problem, so the screen can point at it.
import { describe, expect, it } from 'vitest';
import { type CardSearch, CardSearchError, parseCardSearch } from '../../src/card-search.ts';

const text = (like: string): CardSearch => ({ kind: 'text', like });

/** The error a malformed search raises: its message and the text it points at. */
function refusal(query: string) {
  try {
    parseCardSearch(query);
  } catch (error) {
    expect(error).toBeInstanceOf(CardSearchError);
    const { message, start, end } = error as CardSearchError;
    return { message, at: query.slice(start, end) };
  }
  throw new Error(`expected ${query} to be refused`);
}

describe('reading a search', () => {
  it('finds every card for an empty search', () => {
    expect(parseCardSearch('')).toBeNull();
    expect(parseCardSearch('   ')).toBeNull();
  });

  it('matches words anywhere in a side, all of them, and quoted phrases as one', () => {
    expect(parseCardSearch('dog')).toEqual(text('%dog%'));
    expect(parseCardSearch('dog cat')).toEqual({ kind: 'and', searches: [text('%dog%'), text('%cat%')] });
    expect(parseCardSearch('"a dog"')).toEqual(text('%a dog%'));
    expect(parseCardSearch('dog and cat')).toEqual(parseCardSearch('dog cat'));
    expect(parseCardSearch('well-known')).toEqual(text('%well-known%'));
    expect(parseCardSearch('caf\u00e9 caf\u00e9')).toEqual({ kind: 'and', searches: [text('%café%'), text('%café%')] });
  });

  it('reads or, negation and parentheses, or binding loosest', () => {
    expect(parseCardSearch('dog or cat')).toEqual({ kind: 'or', searches: [text('%dog%'), text('%cat%')] });
    expect(parseCardSearch('dog OR cat mouse')).toEqual({
      kind: 'or',
      searches: [text('%dog%'), { kind: 'and', searches: [text('%cat%'), text('%mouse%')] }],
    });
    expect(parseCardSearch('dog (cat or mouse)')).toEqual({
      kind: 'and',
      searches: [text('%dog%'), { kind: 'or', searches: [text('%cat%'), text('%mouse%')] }],
    });
    expect(parseCardSearch('-cat')).toEqual({ kind: 'not', search: text('%cat%') });
    expect(parseCardSearch('dog -(cat or mouse)')).toEqual({
      kind: 'and',
      searches: [text('%dog%'), { kind: 'not', search: { kind: 'or', searches: [text('%cat%'), text('%mouse%')] } }],
    });
    expect(parseCardSearch('"or"')).toEqual(text('%or%'));
  });

  it('takes * and _ as wildcards, and a backslash before them as the character itself', () => {
    expect(parseCardSearch('d*g')).toEqual(text('%d%g%'));
    expect(parseCardSearch('d_g')).toEqual(text('%d_g%'));
    expect(parseCardSearch('100\\*')).toEqual(text('%100*%'));
    expect(parseCardSearch('snake\\_case')).toEqual(text('%snake\\_case%'));
    expect(parseCardSearch('50%')).toEqual(text('%50\\%%'));
    expect(parseCardSearch('\\-1')).toEqual(text('%-1%'));
    expect(parseCardSearch('"say \\"hi\\""')).toEqual(text('%say "hi"%'));
  });

  it('reads tags, decks with :: children, card templates and fields', () => {
    expect(parseCardSearch('tag:animal')).toEqual({ kind: 'tag', like: 'animal' });
    expect(parseCardSearch('tag:ani*')).toEqual({ kind: 'tag', like: 'ani%' });
    expect(parseCardSearch('tag:lang::spanish')).toEqual({ kind: 'tag', like: 'lang::spanish' });
    expect(parseCardSearch('deck:"French Vocab"')).toEqual({ kind: 'deck', like: 'French Vocab' });
    expect(parseCardSearch('note:Vocab*')).toEqual({ kind: 'note', like: 'Vocab%' });
    expect(parseCardSearch('"note:Basic (and reversed card)"')).toEqual({
      kind: 'note',
      like: 'Basic (and reversed card)',
    });
    expect(parseCardSearch('card:2')).toEqual({ kind: 'card', template: 2 });
    expect(parseCardSearch('card:Reverse')).toEqual({ kind: 'card', template: 'Reverse' });
    expect(parseCardSearch('front:dog')).toEqual({ kind: 'field', field: 'front', like: 'dog' });
    expect(parseCardSearch('Front:*dog*')).toEqual({ kind: 'field', field: 'Front', like: '%dog%' });
    expect(parseCardSearch('"back:a dog"')).toEqual({ kind: 'field', field: 'back', like: 'a dog' });
    expect(parseCardSearch('front\\:dog')).toEqual(text('%front:dog%'));
  });

  it('reads states, added, rated, properties and ids', () => {
    for (const state of ['due', 'new', 'learn', 'review', 'suspended', 'buried'] as const) {
      expect(parseCardSearch(`is:${state}`)).toEqual({ kind: 'state', state });
    }
    expect(parseCardSearch('added:7')).toEqual({ kind: 'added', days: 7 });
    expect(parseCardSearch('rated:3')).toEqual({ kind: 'rated', days: 3, rating: null });
    expect(parseCardSearch('rated:10:1')).toEqual({ kind: 'rated', days: 10, rating: 1 });
    expect(parseCardSearch('prop:ivl>=10')).toEqual({ kind: 'prop', property: 'ivl', comparison: '>=', value: 10 });
    expect(parseCardSearch('prop:due<-1')).toEqual({ kind: 'prop', property: 'due', comparison: '<', value: -1 });
    expect(parseCardSearch('prop:lapses>3')).toEqual({ kind: 'prop', property: 'lapses', comparison: '>', value: 3 });
    expect(parseCardSearch('prop:d!=0.5')).toEqual({ kind: 'prop', property: 'd', comparison: '!=', value: 0.5 });
    expect(parseCardSearch('prop:s>=21')).toEqual({ kind: 'prop', property: 's', comparison: '>=', value: 21 });
    expect(parseCardSearch('nid:123,456')).toEqual({ kind: 'noteIds', ids: ['123', '456'] });
    expect(parseCardSearch('cid:0b6c3f4e-1d2a-4c5b-8e7f-9a0b1c2d3e4f')).toEqual({
      kind: 'cardIds',
      ids: ['0b6c3f4e-1d2a-4c5b-8e7f-9a0b1c2d3e4f'],
    });
  });
});

describe('a malformed search', () => {
  it.each([
    ['dog (cat', 'This parenthesis is not closed.', '('],
    ['dog) cat', 'This parenthesis closes nothing.', ')'],
    ['()', 'These parentheses hold no search.', '()'],
    ['dog or', '“or” needs a search on each side.', 'or'],
    ['or dog', '“or” needs a search on each side.', 'or'],
    ['dog and or cat', '“and” needs a search on each side.', 'and'],
    ['dog -', '“-” needs a search right after it.', '-'],
    ['dog - cat', '“-” needs a search right after it.', '-'],
    ['"a dog', 'This quote is not closed.', '"a dog'],
    ['dog\\', 'A search cannot end with a lone backslash.', '\\'],
    ['d\\og', 'Only * _ " \\ : ( ) and - can follow a backslash, not o.', '\\o'],
    ['""', 'Empty quotes search for nothing: write something between them.', '""'],
    [':dog', 'A field search needs a field name before the colon, like front:dog.', ':dog'],
    ['is:late', 'is: takes due, new, learn, review, suspended, buried, not “late”.', 'is:late'],
    ['added:0', 'added: takes a number of days from 1, like added:7.', 'added:0'],
    ['rated:2:5', 'A rating is 1 (Again), 2 (Hard), 3 (Good) or 4 (Easy).', 'rated:2:5'],
    ['rated:x', 'rated: takes a number of days from 1, like rated:7 or rated:7:1.', 'rated:x'],
    [
      'prop:ivl>3.5',
      'prop: takes ivl, due, reps, lapses, s or d, a comparison and a number, like prop:ivl>10.',
      'prop:ivl>3.5',
    ],
    [
      'prop:size>3',
      'prop: takes ivl, due, reps, lapses, s or d, a comparison and a number, like prop:ivl>10.',
      'prop:size>3',
    ],
    ['nid:1,,2', 'nid: takes ids separated by commas, like nid:123,456.', 'nid:1,,2'],
    ['card:0', 'Card templates are numbered from 1.', 'card:0'],
    ['tag:', 'tag: needs a name after it, like tag:spanish.', 'tag:'],
    ['note:', 'note: needs a name after it, like note:spanish.', 'note:'],
  ])('%j is refused: %s', (query, message, at) => {
    expect(refusal(query)).toEqual({ message, at });
  });

  it('is refused when longer than a search may be', () => {
    expect(refusal('a'.repeat(1_001)).message).toBe('A search is at most 1000 characters.');
  });
});
