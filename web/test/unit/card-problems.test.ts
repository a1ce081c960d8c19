// The card forms' problem function (new card, editor, onboarding's first cards, the generator): which side
// a learner is told to fix, in the same shape as every other form's problems.
import { CARD_SIDE_MAX_LENGTH } from '@engram/contracts/cards';
import { describe, expect, it } from 'vitest';
import { cardProblems } from '../../src/lib/validation.ts';

const long = 'x'.repeat(CARD_SIDE_MAX_LENGTH + 1);

describe('a card’s problems', () => {
  it('ask for both sides of a basic or reversed card, and for nothing once both are written', () => {
    expect(Object.keys(cardProblems({ type: 'basic', front: ' ', back: '' })).sort()).toEqual(['back', 'front']);
    expect(cardProblems({ type: 'reversed', front: 'Capital of Australia', back: '' })).toHaveProperty('back');
    expect(cardProblems({ type: 'basic', front: 'Capital of Australia', back: 'Canberra' })).toEqual({});
  });

  it('let a cloze go without an extra, but not with one that is too long', () => {
    const front = 'The capital of Australia is {{c1::Canberra}}.';
    expect(cardProblems({ type: 'cloze', front, back: '' })).toEqual({});
    expect(cardProblems({ type: 'cloze', front, back: long })).toHaveProperty('back');
  });

  it('refuse a side longer than the cards service keeps', () => {
    expect(cardProblems({ type: 'basic', front: long, back: 'b' })).toHaveProperty('front');
  });
});
