// The cloze syntax, the one rule for cards, ai and the web form: what a deletion is, which texts make a
// cloze card, and a card's review directions (basic has one, reversed two, cloze one per deletion number).

import { describe, expect, it } from 'vitest';
import {
  CLOZE_PROBLEMS,
  cardContentProblem,
  clozeDeletion,
  clozeNumbers,
  clozePlainText,
  MAX_CLOZE_DELETIONS,
  reviewItem as renderItem,
  reviewOrdinals,
} from '../../src/cloze.ts';

/** Inline maths around TeX, `$tex$`. */
const math = (tex: string) => `$${tex}$`;

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
    expect(cardContentProblem('cloze', 'No deletion here')).toBe('noDeletion');
    expect(CLOZE_PROBLEMS.noDeletion).toBe('A cloze card needs at least one deletion, like {{c1::answer}}.');
    expect(cardContentProblem('cloze', 'Has {{c1::one}}')).toBeUndefined();
    expect(cardContentProblem('basic', 'No deletion needed')).toBeUndefined();
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

  it('hides a deletion inside maths as a boxed question mark and reveals it boxed, never as asterisks', () => {
    expect(renderItem('cloze', 1, `Energy: ${math('{{c1::E=mc^2}}')}`, '')).toEqual({
      prompt: 'Energy: $\\boxed{?}$',
      answer: 'Energy: $\\boxed{E=mc^2}$',
    });
    // Braces of the formula itself stay inside the deletion; the hint becomes TeX text.
    expect(renderItem('cloze', 1, '$$x = {{c1::\\frac{a}{b}::a fraction}}$$', '')).toEqual({
      prompt: '$$x = \\boxed{\\text{a fraction}}$$',
      answer: '$$x = \\boxed{\\frac{a}{b}}$$',
    });
  });

  it('keeps a hint in maths from closing the box or running a TeX command', () => {
    const { prompt } = renderItem('cloze', 1, math('{{c1::x::}\\href{javascript:alert(1)}{y} 50%}}'), '');
    expect(prompt).toBe('$\\boxed{\\text{\\}\\textbackslash{}href\\{javascript:alert(1)\\}\\{y\\} 50\\%}}$');
  });

  it('hides a deletion in code as plain text and leaves other braces of the code alone', () => {
    const text = '```js\nfunction f() {{ return {{c1::1}}; }}\n```\nThen `{{c2::let}}`.';
    expect(clozeNumbers(text)).toEqual([1, 2]);
    expect(renderItem('cloze', 1, text, '').prompt).toBe('```js\nfunction f() {{ return […]; }}\n```\nThen `let`.');
    expect(renderItem('cloze', 1, text, '').answer).toBe('```js\nfunction f() {{ return 1; }}\n```\nThen `let`.');
  });

  it('never lets a hidden deletion read as a link', () => {
    expect(renderItem('cloze', 1, '{{c1::Paris}}(France)', '').prompt).toBe('\\[…\\](France)');
    expect(renderItem('cloze', 1, 'See {{c1::Paris}}.', '').prompt).toBe('See […].');
  });
});

describe('the cloze rule', () => {
  it('numbers deletions from 1, as Anki does: {{c0::…}} is refused, even beside a valid deletion', () => {
    expect(cardContentProblem('cloze', 'The capital is {{c0::Paris}}.')).toBe('numberZero');
    expect(cardContentProblem('cloze', '{{c1::Paris}} is in {{c0::France}}.')).toBe('numberZero');
    expect(CLOZE_PROBLEMS.numberZero).toBe('Deletions are numbered from 1, like {{c1::answer}}, not {{c0::answer}}.');
    expect(cardContentProblem('cloze', '{{c999::last}} and {{c1::first}}')).toBeUndefined();
  });

  it('refuses a deletion that hides nothing, with or without a hint', () => {
    for (const front of ['Paris is {{c1::}}.', 'Paris is {{c1::  }}.', 'Paris is {{c1::::a city}}.']) {
      expect(cardContentProblem('cloze', front), front).toBe('emptyDeletion');
    }
    expect(CLOZE_PROBLEMS.emptyDeletion).toBe('A deletion needs an answer to hide, like {{c1::answer}}, not {{c1::}}.');
    // An empty hint is no hint: the answer is there.
    expect(cardContentProblem('cloze', 'Paris is {{c1::France::}}.')).toBeUndefined();
  });

  it('takes deletions with hints, in maths and in code', () => {
    expect(cardContentProblem('cloze', 'The capital of {{c1::France::country}}')).toBeUndefined();
    expect(cardContentProblem('cloze', '$$x = {{c1::\\frac{a}{b}}}$$')).toBeUndefined();
    expect(cardContentProblem('cloze', '```js\nconst x = {{c1::1}};\n```')).toBeUndefined();
    expect(cardContentProblem('cloze', '`{{c1::}}` in code')).toBe('emptyDeletion');
  });

  it(`counts at most ${MAX_CLOZE_DELETIONS} deletion numbers; a number asked twice counts once`, () => {
    const many = (count: number) => Array.from({ length: count }, (_, i) => clozeDeletion(i + 1, `w${i}`)).join(' ');
    expect(cardContentProblem('cloze', many(MAX_CLOZE_DELETIONS))).toBeUndefined();
    expect(cardContentProblem('cloze', `${many(MAX_CLOZE_DELETIONS)} {{c1::again}}`)).toBeUndefined();
    expect(cardContentProblem('cloze', many(MAX_CLOZE_DELETIONS + 1))).toBe('tooManyDeletions');
    expect(CLOZE_PROBLEMS.tooManyDeletions).toBe('A cloze card can have at most 50 deletions.');
  });

  it('writes deletions as it reads them, and reads a text without its markup', () => {
    expect(clozeDeletion(1, 'Paris')).toBe('{{c1::Paris}}');
    expect(clozeDeletion(2, 'Paris', 'capital')).toBe('{{c2::Paris::capital}}');
    expect(clozePlainText('{{c2::Paris::capital}} is in {{c1::France}}, `{{c3::x}}` and $${{c4::y}}$$')).toBe(
      'Paris is in France, `x` and $$y$$',
    );
  });
});
