// The pure parts of generation: the offline generator's reading of notes, what makes a proposal
// acceptable and new, cards read out of a tool call's JSON while it arrives, and the counting period.

import { CLOZE_PROBLEMS } from '@engram/contracts/cloze';
import type { CardType } from '@engram/contracts/learning';
import { describe, expect, it } from 'vitest';
import { countingPeriod } from '../../src/domain/period.js';
import { acceptCard, QuestionSet, questionKey } from '../../src/domain/proposals.js';
import { CardStreamParser, MALFORMED } from '../../src/generators/card-stream.js';
import { deriveCandidates, languageOf } from '../../src/generators/offline.js';

describe('the offline generator', () => {
  const notes = [
    '# Biology',
    '',
    'The mitochondrion is the powerhouse of the cell.',
    'Osmosis: water moving across a membrane.',
    'DNA is copied by **DNA polymerase** before a cell divides.',
    '',
    'The phases of mitosis:',
    '- prophase',
    '- metaphase',
    '- anaphase',
    '- telophase',
  ].join('\n');

  it('asks one card per fact, as the types asked take turns, with the heading as a tag and the line as the quote', () => {
    const quote = 'The mitochondrion is the powerhouse of the cell.';
    const asked = (types: CardType[]) =>
      deriveCandidates(notes, 'en', types).filter((c) => c.sourceQuote.startsWith('The mitochondrion'));
    const card = { back: 'The powerhouse of the cell.', tags: ['biology'], sourceQuote: quote };
    expect(asked(['basic', 'reversed', 'cloze'])).toEqual([
      { type: 'basic', front: 'What is the mitochondrion?', ...card },
    ]);
    expect(asked(['reversed'])).toEqual([{ type: 'reversed', front: 'Mitochondrion', ...card }]);
    expect(asked(['cloze'])).toEqual([
      { type: 'cloze', front: 'The {{c1::mitochondrion}} is the powerhouse of the cell.', ...card, back: '' },
    ]);
    // The next fact takes the next type.
    const all = deriveCandidates(notes, 'en');
    expect(all.map((c) => c.type)).toEqual(['basic', 'reversed', 'cloze', 'basic']);
    expect(new Set(all.map((c) => c.sourceQuote)).size).toBe(all.length);
  });

  it('keeps the notes’ article and verb in its questions, and asks nothing of a sentence about something else', () => {
    const fronts = (text: string, language: 'en' | 'pt' = 'en') =>
      deriveCandidates(text, language, ['basic']).map((c) => c.front);
    expect(fronts('An atom is the smallest unit of an element.')).toEqual(['What is an atom?']);
    expect(fronts('Isotopes are atoms of one element with different numbers of neutrons.')).toEqual([
      'What are Isotopes?',
    ]);
    expect(fronts('Entropy means the disorder of a system.')).toEqual(['What does Entropy mean?']);
    expect(fronts('Osmosis: water moving across a membrane.')).toEqual(['What does “Osmosis” mean?']);
    expect(fronts('Paris is the capital of France.')).toEqual(['What is Paris?']);
    expect(fronts('In the light-dependent reactions, water is split into oxygen and hydrogen.')).toEqual([]);
    expect(fronts('During mitosis the nucleus is divided in two.')).toEqual([]);
    expect(fronts('Os isótopos são átomos do mesmo elemento com números diferentes de nêutrons.', 'pt')).toEqual([
      'O que são os isótopos?',
    ]);
    expect(fronts('An atom is the smallest unit.\nAn atom is the smallest unit.')).toEqual(['What is an atom?']);
  });

  it('reads "X: Y" definitions, bold key terms as cloze deletions, and lists under a line ending in a colon', () => {
    const cards = deriveCandidates(notes, 'en', ['basic', 'cloze']);
    expect(cards).toContainEqual(
      expect.objectContaining({
        type: 'cloze',
        front: 'Osmosis: water moving across a membrane.'.replace('Osmosis', '{{c1::Osmosis}}'),
      }),
    );
    expect(cards).toContainEqual(
      expect.objectContaining({
        type: 'cloze',
        front: 'DNA is copied by {{c1::DNA polymerase}} before a cell divides.',
      }),
    );
    expect(cards).toContainEqual(
      expect.objectContaining({
        type: 'basic',
        front: 'Name the 4 items of: The phases of mitosis',
        back: '- prophase\n- metaphase\n- anaphase\n- telophase',
      }),
    );
  });

  it('writes its questions in the notes’ language unless told otherwise', () => {
    const portuguese = 'A mitocôndria é a usina de energia da célula, que produz a maior parte da energia.';
    expect(languageOf(portuguese, undefined)).toBe('pt');
    expect(languageOf(portuguese, 'en')).toBe('en');
    expect(deriveCandidates(portuguese, 'pt')[0]?.front).toBe('O que é a mitocôndria?');
  });

  it('finds nothing to ask in text without structure', () => {
    expect(deriveCandidates('just some words without any definitions in them', 'en')).toEqual([]);
  });
});

describe('accepting a proposal', () => {
  const card = {
    type: 'basic',
    front: 'What is osmosis?',
    back: 'Water crossing a membrane.',
    tags: ['#Biology', 'biology', ' Cells '],
    sourceQuote: 'Osmosis: water…',
  };

  it('keeps a well-formed card with its quote, cleaning its tags', () => {
    expect(acceptCard(card, ['basic'])).toEqual({ ...card, tags: ['biology', 'cells'] });
  });

  it('rejects malformed cards, unasked types, empty answers, clozes without a deletion and overlong sides', () => {
    expect(acceptCard('a string', ['basic'])).toEqual({ rejected: 'malformed' });
    expect(acceptCard({ ...card, sourceQuote: undefined }, ['basic'])).toEqual({ rejected: 'malformed' });
    expect(acceptCard(card, ['cloze'])).toEqual({ rejected: 'type not asked for' });
    expect(acceptCard({ ...card, back: ' ' }, ['basic'])).toEqual({ rejected: 'no answer' });
    expect(acceptCard({ ...card, type: 'cloze', back: '' }, ['cloze'])).toEqual({
      rejected: CLOZE_PROBLEMS.noDeletion,
    });
    expect(acceptCard({ ...card, front: 'q'.repeat(301) }, ['basic'])).toEqual({ rejected: 'malformed' });
    expect(acceptCard({ ...card, back: 'What is Osmosis' }, ['basic'])).toEqual({
      rejected: 'answer repeats the question',
    });
  });

  it('takes a cloze by the rule the cards service saves it by: numbered from 1, every deletion hiding something', () => {
    const cloze = (front: string) => acceptCard({ ...card, type: 'cloze', front, back: '' }, ['cloze']);
    expect(cloze('Water crosses a {{c0::membrane}}.')).toEqual({ rejected: CLOZE_PROBLEMS.numberZero });
    expect(cloze('Water crosses a {{c1::}}.')).toEqual({ rejected: CLOZE_PROBLEMS.emptyDeletion });
    expect(cloze('Water crosses a {{c1::membrane::barrier}}.')).toMatchObject({ type: 'cloze' });
    expect(cloze('Osmosis: $c_1 = {{c1::c_2}}$.')).toMatchObject({ type: 'cloze' });
  });

  it('treats questions differing only in case, accents, punctuation or cloze markup as the same', () => {
    expect(questionKey('The {{c1::Célula}} divides!')).toBe(questionKey('the celula divides'));
    const asked = new QuestionSet(['What is osmosis?']);
    expect(asked.admit('what is OSMOSIS')).toBe(false);
    expect(asked.admit('What is diffusion?')).toBe(true);
    expect(asked.admit('What is diffusion')).toBe(false);
  });
});

describe('reading cards from a streamed tool call', () => {
  it('hands out each card when its closing brace arrives, and a broken one as malformed', () => {
    const parser = new CardStreamParser();
    const json = '{"cards":[{"front":"a {b}","tags":["x","y"]},{"front": oops},{"front":"\\"quoted\\" }"}]}';
    const out: unknown[] = [];
    for (const char of json) out.push(...parser.push(char));
    expect(out).toEqual([{ front: 'a {b}', tags: ['x', 'y'] }, MALFORMED, { front: '"quoted" }' }]);
  });
});

describe('the counting period', () => {
  it('is billing’s period when it is a month, and the current month of an annual one', () => {
    const start = new Date('2026-01-31T10:00:00Z');
    expect(countingPeriod(start, new Date('2026-02-28T10:00:00Z'), new Date('2026-02-10T00:00:00Z'))).toEqual({
      start,
      end: new Date('2026-02-28T10:00:00Z'),
    });
    expect(countingPeriod(start, new Date('2027-01-31T10:00:00Z'), new Date('2026-04-15T00:00:00Z'))).toEqual({
      start: new Date('2026-03-31T10:00:00Z'),
      end: new Date('2026-04-30T10:00:00Z'),
    });
  });
});
