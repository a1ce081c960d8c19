// Anki's search syntax (https://docs.ankiweb.net/searching.html), read into a tree the Browse screen and the
// AnkiConnect actions findNotes and findCards both search with (issue 44). What it reads:
// - words and "quoted phrases" (a word matches inside a side: dog finds doggy); `*` any run of characters and `_`
//   one, `\` before `* _ " \ : ( ) -` takes it literally;
// - `-` before a search or a group negates it; searches side by side must all match (and), `or` between two makes
//   either do; `and`/`or` in any case; parentheses group; `or` binds loosest ("a or b c" is a or (b and c));
// - `tag:` (a tag and its `::` children; wildcards), `deck:` (the same, for decks), `card:` (a card's template,
//   by number from 1 or by name), `is:` due, new, learn, review, suspended (archived), buried;
// - `added:N` (added in the last N days), `rated:N` and `rated:N:R` (answered in the last N days, with rating R
//   from 1 Again to 4 Easy), `prop:` ivl, due, reps, lapses, s (FSRS stability, in days) or d (difficulty,
//   0 to 1, as Anki shows FSRS's) with <, <=, >, >=, =, != and a number (Engram has no ease: it schedules with FSRS);
// - `nid:` and `cid:` with one id or several, comma-separated; `field:value`, a field's whole text (wildcards).
// A malformed search is refused with a CardSearchError that names the problem and where it is (start and end
// offsets in the query), so the screen can point at it.

/** Text to match, as a LIKE pattern: `%` any run, `_` one character, `\` before a literal `%`, `_` or `\`. */
export type LikePattern = string;

export type CardState = 'due' | 'new' | 'learn' | 'review' | 'suspended' | 'buried';
export type CardProperty = 'ivl' | 'due' | 'reps' | 'lapses' | 's' | 'd';
export type Comparison = '<' | '<=' | '>' | '>=' | '=' | '!=';

export type CardSearch =
  | { kind: 'and'; searches: CardSearch[] }
  | { kind: 'or'; searches: CardSearch[] }
  | { kind: 'not'; search: CardSearch }
  /** Text anywhere in a card's sides. */
  | { kind: 'text'; like: LikePattern }
  /** A field's whole text (front, back, or a note type's field), by its name in any case. */
  | { kind: 'field'; field: string; like: LikePattern }
  /** A tag or any of its `::` children. */
  | { kind: 'tag'; like: LikePattern }
  /** A deck or any of its `::` children. */
  | { kind: 'deck'; like: LikePattern }
  /** A note type, stock or the learner's own, by its name. */
  | { kind: 'note'; like: LikePattern }
  /** A card's template: its number from 1, or its name. */
  | { kind: 'card'; template: number | string }
  | { kind: 'state'; state: CardState }
  | { kind: 'added'; days: number }
  | { kind: 'rated'; days: number; rating: 1 | 2 | 3 | 4 | null }
  | { kind: 'prop'; property: CardProperty; comparison: Comparison; value: number }
  | { kind: 'noteIds'; ids: string[] }
  | { kind: 'cardIds'; ids: string[] };

/** What can be wrong with a search, in English (the web app words each in the learner's language by its code). */
export const CARD_SEARCH_PROBLEMS = {
  tooLong: (v: { max: number }) => `A search is at most ${v.max} characters.`,
  trailingBackslash: () => 'A search cannot end with a lone backslash.',
  badEscape: (v: { char: string }) => `Only * _ " \\ : ( ) and - can follow a backslash, not ${v.char}.`,
  unclosedQuote: () => 'This quote is not closed.',
  emptyQuotes: () => 'Empty quotes search for nothing: write something between them.',
  missingField: () => 'A field search needs a field name before the colon, like front:dog.',
  missingName: (v: { name: string }) => `${v.name}: needs a name after it, like ${v.name}:spanish.`,
  missingTemplate: () => 'card: needs a template number or name after it, like card:2.',
  templateZero: () => 'Card templates are numbered from 1.',
  badState: (v: { states: string; value: string }) => `is: takes ${v.states}, not “${v.value}”.`,
  badAdded: () => 'added: takes a number of days from 1, like added:7.',
  badRated: () => 'rated: takes a number of days from 1, like rated:7 or rated:7:1.',
  badRating: () => 'A rating is 1 (Again), 2 (Hard), 3 (Good) or 4 (Easy).',
  badProp: () => 'prop: takes ivl, due, reps, lapses, s or d, a comparison and a number, like prop:ivl>10.',
  badIds: (v: { name: string }) => `${v.name}: takes ids separated by commas, like ${v.name}:123,456.`,
  operatorAlone: (v: { operator: string }) => `“${v.operator}” needs a search on each side.`,
  dashAlone: () => '“-” needs a search right after it.',
  emptyGroup: () => 'These parentheses hold no search.',
  unclosedGroup: () => 'This parenthesis is not closed.',
  strayClose: () => 'This parenthesis closes nothing.',
} as const;
export type CardSearchProblem = keyof typeof CARD_SEARCH_PROBLEMS;
type ProblemValues<P extends CardSearchProblem> = Parameters<(typeof CARD_SEARCH_PROBLEMS)[P]>[0];

/** A search that cannot be read: what is wrong (its code and words), and where (offsets, end exclusive). */
export class CardSearchError extends Error {
  readonly start: number;
  readonly end: number;
  readonly problem: CardSearchProblem;
  readonly values: Record<string, string | number>;
  constructor(
    message: string,
    start: number,
    end: number,
    problem: CardSearchProblem,
    values: Record<string, string | number> = {},
  ) {
    super(message);
    this.name = 'CardSearchError';
    this.start = start;
    this.end = end;
    this.problem = problem;
    this.values = values;
  }
}

/** The error of `problem` at start–end. */
function problemAt<P extends CardSearchProblem>(
  problem: P,
  start: number,
  end: number,
  ...values: ProblemValues<P> extends undefined ? [] : [ProblemValues<P>]
): CardSearchError {
  const given = (values[0] ?? {}) as Record<string, string | number>;
  const words = (CARD_SEARCH_PROBLEMS[problem] as (v: unknown) => string)(given);
  return new CardSearchError(words, start, end, problem, given);
}

/** The longest search text read. */
export const CARD_SEARCH_MAX_LENGTH = 1_000;

const STATES: readonly CardState[] = ['due', 'new', 'learn', 'review', 'suspended', 'buried'];
/** In the order they are tried: `due` before `d`. */
const PROPERTIES: readonly CardProperty[] = ['ivl', 'due', 'reps', 'lapses', 's', 'd'];
const COMPARISONS: readonly Comparison[] = ['<=', '>=', '!=', '<', '>', '='];
const ESCAPABLE = new Set(['*', '_', '"', '\\', ':', '(', ')', '-']);
const SPACE = /[\s\u3000]/;

/** A word of the query as written: its characters, whether each was escaped, and where it is. */
interface Word {
  chars: { char: string; escaped: boolean }[];
  start: number;
  end: number;
  quoted: boolean;
}

type Token =
  | { type: '(' | ')'; start: number }
  /** `spaced`: nothing follows it before a space or the end (a search must follow at once). */
  | { type: '-'; start: number; spaced: boolean }
  | { type: 'word'; word: Word };

const wordText = (chars: Word['chars']) => chars.map(({ char }) => char).join('');

function tokens(query: string): Token[] {
  const found: Token[] = [];
  let at = 0;
  while (at < query.length) {
    const char = query[at] as string;
    if (SPACE.test(char)) {
      at += 1;
    } else if (char === '(' || char === ')') {
      found.push({ type: char, start: at });
      at += 1;
    } else if (char === '-') {
      const next = query[at + 1];
      found.push({ type: '-', start: at, spaced: next === undefined || SPACE.test(next) });
      at += 1;
    } else {
      const word = readWord(query, at);
      found.push({ type: 'word', word });
      at = word.end;
    }
  }
  return found;
}

/** A word from `start`: up to a space or a parenthesis, with "quoted" stretches (spaces and all) inside it. */
function readWord(query: string, start: number): Word {
  const chars: Word['chars'] = [];
  let at = start;
  let quoted = false;
  let quoteStart = -1;
  while (at < query.length) {
    const char = query[at] as string;
    if (char === '\\') {
      const next = query[at + 1];
      if (next === undefined) throw problemAt('trailingBackslash', at, at + 1);
      if (!ESCAPABLE.has(next)) {
        throw problemAt('badEscape', at, at + 2, { char: next });
      }
      chars.push({ char: next, escaped: true });
      at += 2;
    } else if (char === '"') {
      if (quoteStart === -1) {
        quoteStart = at;
        quoted = true;
      } else quoteStart = -1;
      at += 1;
    } else if (quoteStart === -1 && (SPACE.test(char) || char === '(' || char === ')')) {
      break;
    } else {
      chars.push({ char, escaped: false });
      at += 1;
    }
  }
  if (quoteStart !== -1) throw problemAt('unclosedQuote', quoteStart, query.length);
  return { chars, start, end: at, quoted };
}

/** Characters as a LIKE pattern: unescaped * and _ are wildcards, everything else literal. */
function likeOf(chars: Word['chars']): LikePattern {
  return chars
    .map(({ char, escaped }) => {
      if (!escaped && char === '*') return '%';
      if (!escaped && char === '_') return '_';
      return char === '%' || char === '_' || char === '\\' ? `\\${char}` : char;
    })
    .join('');
}

const wholeNumber = (text: string) => (/^\d{1,9}$/.test(text) ? Number(text) : null);

/** A word with a `name:` in front (not escaped, not in quotes before it), or plain text. */
function searchOf(word: Word): CardSearch {
  const refuse = <P extends CardSearchProblem>(
    problem: P,
    ...values: ProblemValues<P> extends undefined ? [] : [ProblemValues<P>]
  ): never => {
    throw problemAt(problem, word.start, word.end, ...values);
  };
  const colon = word.chars.findIndex(({ char, escaped }) => char === ':' && !escaped);
  if (colon === -1) {
    if (word.chars.length === 0) refuse('emptyQuotes');
    return { kind: 'text', like: `%${likeOf(word.chars)}%` };
  }
  const name = wordText(word.chars.slice(0, colon)).toLowerCase();
  const valueChars = word.chars.slice(colon + 1);
  const value = wordText(valueChars);
  if (name === '') refuse('missingField');
  switch (name) {
    case 'tag':
    case 'deck':
    case 'note':
      if (value === '') refuse('missingName', { name });
      return { kind: name, like: likeOf(valueChars) };
    case 'card': {
      if (value === '') refuse('missingTemplate');
      const number = wholeNumber(value);
      if (number === 0) refuse('templateZero');
      return { kind: 'card', template: number ?? value };
    }
    case 'is': {
      const state = STATES.find((each) => each === value.toLowerCase());
      return state ? { kind: 'state', state } : refuse('badState', { states: STATES.join(', '), value });
    }
    case 'added': {
      const days = wholeNumber(value);
      return days && days > 0 ? { kind: 'added', days } : refuse('badAdded');
    }
    case 'rated': {
      const [daysText = '', ratingText, ...rest] = value.split(':');
      const days = wholeNumber(daysText);
      if (!days || days < 1 || rest.length > 0) refuse('badRated');
      if (ratingText === undefined) return { kind: 'rated', days: days as number, rating: null };
      const rating = wholeNumber(ratingText);
      if (rating === null || rating < 1 || rating > 4) refuse('badRating');
      return { kind: 'rated', days: days as number, rating: rating as 1 | 2 | 3 | 4 };
    }
    case 'prop': {
      const property = PROPERTIES.find((each) => value.toLowerCase().startsWith(each));
      const rest = property ? value.slice(property.length) : '';
      const comparison = COMPARISONS.find((each) => rest.startsWith(each));
      const number = comparison ? rest.slice(comparison.length) : '';
      const numeric = property === 's' || property === 'd' || property === 'due' ? /^-?\d+(\.\d+)?$/ : /^\d+$/;
      if (!property || !comparison || !numeric.test(number) || (property === 'due' && number.includes('.'))) {
        refuse('badProp');
      }
      return {
        kind: 'prop',
        property: property as CardProperty,
        comparison: comparison as Comparison,
        value: Number(number),
      };
    }
    case 'nid':
    case 'cid': {
      const ids = value.split(',');
      if (ids.some((id) => !/^[\w-]{1,64}$/.test(id))) refuse('badIds', { name });
      return { kind: name === 'nid' ? 'noteIds' : 'cardIds', ids };
    }
    default:
      return { kind: 'field', field: wordText(word.chars.slice(0, colon)), like: likeOf(valueChars) };
  }
}

/**
 * Reads a search in Anki's syntax; null for an empty one (every card). Throws a CardSearchError for a malformed
 * search.
 */
export function parseCardSearch(query: string): CardSearch | null {
  if (query.length > CARD_SEARCH_MAX_LENGTH) {
    throw problemAt('tooLong', CARD_SEARCH_MAX_LENGTH, query.length, { max: CARD_SEARCH_MAX_LENGTH });
  }
  const list = tokens(query);
  let at = 0;
  const isOperator = (token: Token | undefined, operator: 'and' | 'or') =>
    token?.type === 'word' &&
    !token.word.quoted &&
    wordText(token.word.chars).toLowerCase() === operator &&
    token.word.chars.every(({ escaped }) => !escaped);
  const startOf = (token: Token) => (token.type === 'word' ? token.word.start : token.start);
  const endOf = (token: Token) => (token.type === 'word' ? token.word.end : token.start + 1);

  // or-list := and-list ("or" and-list)*
  function orList(): CardSearch {
    const searches = [andList()];
    while (isOperator(list[at], 'or')) {
      const operator = list[at] as Token;
      at += 1;
      if (at >= list.length || list[at]?.type === ')' || isOperator(list[at], 'or') || isOperator(list[at], 'and')) {
        throw problemAt('operatorAlone', startOf(operator), endOf(operator), { operator: 'or' });
      }
      searches.push(andList());
    }
    return searches.length === 1 ? (searches[0] as CardSearch) : { kind: 'or', searches };
  }

  // and-list := unary (("and")? unary)*
  function andList(): CardSearch {
    const first = list[at];
    if (first && (isOperator(first, 'or') || isOperator(first, 'and'))) {
      throw problemAt('operatorAlone', startOf(first), endOf(first), {
        operator: wordText((first as { word: Word }).word.chars),
      });
    }
    const searches = [unary()];
    for (;;) {
      const next = list[at];
      if (!next || next.type === ')' || isOperator(next, 'or')) break;
      if (isOperator(next, 'and')) {
        at += 1;
        const after = list[at];
        if (!after || after.type === ')' || isOperator(after, 'or') || isOperator(after, 'and')) {
          throw problemAt('operatorAlone', startOf(next), endOf(next), { operator: 'and' });
        }
      }
      searches.push(unary());
    }
    return searches.length === 1 ? (searches[0] as CardSearch) : { kind: 'and', searches };
  }

  function unary(): CardSearch {
    const token = list[at] as Token;
    at += 1;
    if (token.type === '-') {
      const next = list[at];
      if (token.spaced || !next || next.type === ')') throw problemAt('dashAlone', token.start, token.start + 1);
      return { kind: 'not', search: unary() };
    }
    if (token.type === '(') {
      if (list[at]?.type === ')') throw problemAt('emptyGroup', token.start, token.start + 2);
      if (at >= list.length) throw problemAt('unclosedGroup', token.start, token.start + 1);
      const inner = orList();
      if (list[at]?.type !== ')') throw problemAt('unclosedGroup', token.start, token.start + 1);
      at += 1;
      return inner;
    }
    if (token.type !== 'word') throw problemAt('strayClose', token.start, token.start + 1);
    return searchOf(token.word);
  }

  if (list.length === 0) return null;
  const search = orList();
  const left = list[at];
  if (left) throw problemAt('strayClose', startOf(left), endOf(left));
  return search;
}
