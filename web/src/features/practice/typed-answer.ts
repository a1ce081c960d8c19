// A typed answer compared with the card's answer as Anki compares them (its rslib/src/typeanswer.rs): both in
// Unicode NFC, matched character by character with Python difflib's SequenceMatcher (the `difflib` package is its
// port), every difference kept: case and accents count, as in Anki. The typed line marks what was right (good),
// what was wrong or extra (bad) and, with a dash for each, what is missing; the answer line marks what was typed
// right (good) and what was not (missing). From the comparison Engram suggests a rating; the learner chooses.
import type { RatingName } from '@engram/contracts/learning';
import { SequenceMatcher } from 'difflib';
import { markdownText } from '../../lib/markdown-text';

export type TypedTokenKind = 'good' | 'bad' | 'missing';

export interface TypedToken {
  kind: TypedTokenKind;
  text: string;
}

export interface TypedComparison {
  /** What was typed, trimmed; empty when nothing was. */
  typed: string;
  /** The answer as it was to be typed. */
  expected: string;
  /** Typed exactly (after NFC). */
  exact: boolean;
  typedTokens: TypedToken[];
  expectedTokens: TypedToken[];
  /** SequenceMatcher's ratio: 1 for the same text, 0 for nothing in common. */
  similarity: number;
}

/**
 * The text a typed card's answer (its back, in Markdown) asks to be typed: what the learner reads of it, without
 * pictures, sounds, links' addresses, markup or line breaks (Anki types a field with its HTML stripped, its
 * line breaks as spaces).
 */
export const answerToType = (markdown: string) => markdownText(markdown, { media: 'left out' });

const characters = (text: string) => [...text.normalize('NFC')];

/** A text without its accents (a note's {{type:nc:Field}} does not count them, as Anki's does not). */
const withoutAccents = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');

/** Compares what the learner typed with the answer (answerToType's text); `ignoreAccents` compares them without. */
export function compareTypedAnswer(
  expectedText: string,
  typedText: string,
  { ignoreAccents = false } = {},
): TypedComparison {
  const plain = ignoreAccents ? withoutAccents : (text: string) => text;
  const expected = plain(expectedText.normalize('NFC'));
  const typed = plain(typedText.trim().normalize('NFC'));
  const base = { typed, expected };
  if (typed === expected) {
    const tokens: TypedToken[] = expected ? [{ kind: 'good', text: expected }] : [];
    return { ...base, exact: true, typedTokens: tokens, expectedTokens: tokens, similarity: 1 };
  }
  if (typed === '') {
    return {
      ...base,
      exact: false,
      typedTokens: [],
      expectedTokens: [{ kind: 'missing', text: expected }],
      similarity: 0,
    };
  }
  const typedChars = characters(typed);
  const expectedChars = characters(expected);
  // No junk: every character counts (autojunk only concerns texts of 200 characters or more).
  const matcher = new SequenceMatcher<string[]>(null, typedChars, expectedChars, false);
  const typedTokens: TypedToken[] = [];
  const expectedTokens: TypedToken[] = [];
  for (const [tag, typedFrom, typedTo, expectedFrom, expectedTo] of matcher.getOpcodes()) {
    const typedSlice = typedChars.slice(typedFrom, typedTo).join('');
    const expectedSlice = expectedChars.slice(expectedFrom, expectedTo).join('');
    if (tag === 'equal') {
      typedTokens.push({ kind: 'good', text: typedSlice });
      expectedTokens.push({ kind: 'good', text: expectedSlice });
    } else if (tag === 'delete') {
      typedTokens.push({ kind: 'bad', text: typedSlice });
    } else if (tag === 'insert') {
      typedTokens.push({ kind: 'missing', text: '-'.repeat(expectedTo - expectedFrom) });
      expectedTokens.push({ kind: 'missing', text: expectedSlice });
    } else {
      typedTokens.push({ kind: 'bad', text: typedSlice });
      expectedTokens.push({ kind: 'missing', text: expectedSlice });
    }
  }
  return { ...base, exact: false, typedTokens, expectedTokens, similarity: matcher.ratio() };
}

/** Without accents and case: what tells a slip of the keyboard from a wrong answer. */
const folded = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase().replace(/\s+/g, ' ');

/** How close a typed answer must be (SequenceMatcher's ratio) for Hard rather than Again. */
export const HARD_SIMILARITY = 0.8;

/**
 * The rating a comparison suggests: Good when typed exactly; Hard when only accents or case differ, or nearly
 * all of it is right; else Again. Never Easy: how easily it came is the learner's to say.
 */
export function suggestedRating(comparison: TypedComparison): RatingName {
  if (comparison.exact) return 'good';
  if (comparison.typed === '') return 'again';
  if (folded(comparison.typed) === folded(comparison.expected)) return 'hard';
  return comparison.similarity >= HARD_SIMILARITY ? 'hard' : 'again';
}
