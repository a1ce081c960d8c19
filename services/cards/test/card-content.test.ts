// A card's review directions: basic has one, reversed two, cloze one per deletion number.
import { describe, expect, it } from 'vitest';
import { clozeNumbers, contentProblem, renderItem, reviewOrdinals } from '../src/domain/card-content.js';

describe('review directions of a card', () => {
  it('gives a basic card one direction and a reversed card two', () => {
    expect(reviewOrdinals('basic', 'Q')).toEqual([0]);
    expect(reviewOrdinals('reversed', 'Q')).toEqual([0, 1]);
  });

  it('gives a cloze card one direction per distinct deletion number', () => {
    const text = '{{c2::Berlin}} is the capital of {{c1::Germany}}; {{c2::it}} has 3.7M people.';
    expect(clozeNumbers(text)).toEqual([1, 2]);
    expect(reviewOrdinals('cloze', text)).toEqual([1, 2]);
  });

  it('refuses a cloze card without a deletion', () => {
    expect(contentProblem('cloze', 'No deletion here')).toBe(
      'A cloze card needs at least one deletion, like {{c1::answer}}.',
    );
    expect(contentProblem('cloze', 'Has {{c1::one}}')).toBeUndefined();
    expect(contentProblem('basic', 'No deletion needed')).toBeUndefined();
  });

  it('asks the back of a reversed card in its second direction', () => {
    expect(renderItem('reversed', 0, 'dog', 'Hund')).toEqual({ prompt: 'dog', answer: 'Hund' });
    expect(renderItem('reversed', 1, 'dog', 'Hund')).toEqual({ prompt: 'Hund', answer: 'dog' });
  });

  it('hides only the asked deletion of a cloze card, with its hint, and reveals it in the answer', () => {
    const text = 'The derivative of {{c1::$x^2$::power rule}} is {{c2::$2x$}}.';
    expect(renderItem('cloze', 1, text, '')).toEqual({
      prompt: 'The derivative of [power rule] is $2x$.',
      answer: 'The derivative of **$x^2$** is $2x$.',
    });
    expect(renderItem('cloze', 2, text, 'Extra note')).toEqual({
      prompt: 'The derivative of $x^2$ is […].',
      answer: 'The derivative of $x^2$ is **$2x$**.\n\n---\n\nExtra note',
    });
  });
});
