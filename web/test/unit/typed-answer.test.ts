// Typed answers are compared as Anki compares them: the expectations of Anki's own tests of its comparison
// (ankitects/anki, rslib/src/typeanswer.rs, its `mod test`) hold here, token for token; then Engram's suggested
// rating, and the text a card's Markdown answer asks to be typed.
import { describe, expect, it } from 'vitest';
import { answerToType, compareTypedAnswer, suggestedRating } from '../../src/features/practice/typed-answer';

const good = (text: string) => ({ kind: 'good', text });
const bad = (text: string) => ({ kind: 'bad', text });
const missing = (text: string) => ({ kind: 'missing', text });

describe('a typed answer compared with the card’s', () => {
  it('marks what was right, wrong and missing on both lines, as Anki does', () => {
    const compared = compareTypedAnswer('¿Y ahora qué vamos a hacer?', 'y ahora qe vamosa hacer');
    expect(compared.typedTokens).toEqual([
      bad('y'),
      good(' ahora q'),
      bad('e'),
      good(' vamos'),
      missing('-'),
      good('a hacer'),
      missing('-'),
    ]);
    expect(compared.expectedTokens).toEqual([
      missing('¿Y'),
      good(' ahora q'),
      missing('ué'),
      good(' vamos'),
      missing(' '),
      good('a hacer'),
      missing('?'),
    ]);
    expect(compared.exact).toBe(false);
  });

  it('shows missing characters in the typed line only after a right one, and counts them per character', () => {
    expect(compareTypedAnswer('1', '23').typedTokens).toEqual([bad('23')]);
    expect(compareTypedAnswer('12', '1').typedTokens).toEqual([good('1'), missing('-')]);
    expect(compareTypedAnswer('нос', 'нс').typedTokens).toEqual([good('н'), missing('-'), good('с')]);
    expect(compareTypedAnswer('쓰다듬다', '스다뜸다').typedTokens).toEqual([
      bad('스'),
      good('다'),
      bad('뜸'),
      good('다'),
    ]);
  });

  it('takes a right answer as one good token, whatever its Unicode form', () => {
    const compared = compareTypedAnswer('café', 'cafe\u0301');
    expect(compared.exact).toBe(true);
    expect(compared.typedTokens).toEqual([good('café')]);
    expect(compareTypedAnswer('123', '1123').typedTokens).toEqual([bad('1'), good('123')]);
  });

  it('counts accents and case as differences, and an empty answer as the answer missing', () => {
    expect(compareTypedAnswer('Café', 'cafe').exact).toBe(false);
    expect(compareTypedAnswer('Café', 'cafe').expectedTokens).toEqual([missing('C'), good('af'), missing('é')]);
    expect(compareTypedAnswer('123', '  ').expectedTokens).toEqual([missing('123')]);
  });

  it('keeps a sentence far from the answer apart without failing', () => {
    const compared = compareTypedAnswer(
      'Сущность должна быть ответственна только за одно дело',
      'Single responsibility Сущность выполняет только одну задачу.Повод для изменения сущности только один.',
    );
    expect(compared.similarity).toBeLessThan(0.8);
  });
});

describe('the rating Engram suggests', () => {
  it('is Good when typed exactly, Hard for a slip or only accents and case, Again otherwise, never Easy', () => {
    expect(suggestedRating(compareTypedAnswer('to speak', 'to speak'))).toBe('good');
    expect(suggestedRating(compareTypedAnswer('Árvore', 'arvore'))).toBe('hard');
    expect(suggestedRating(compareTypedAnswer('necessary', 'neccessary'))).toBe('hard');
    expect(suggestedRating(compareTypedAnswer('necessary', 'needed'))).toBe('again');
    expect(suggestedRating(compareTypedAnswer('necessary', ''))).toBe('again');
  });
});

describe('the text an answer asks to be typed', () => {
  it('is what the learner reads of it: no pictures, sounds, addresses, markup or line breaks', () => {
    expect(answerToType('**hablar**  \n_to speak_')).toBe('hablar to speak');
    expect(answerToType('![a mouth](/api/media/1/mouth.png) la boca [sound](/api/media/2/boca.mp3)')).toBe('la boca');
    expect(answerToType('[Lisbon](https://example.org/lisbon)')).toBe('Lisbon');
    expect(answerToType('- one\n- two')).toBe('one two');
    expect(answerToType('`x = 1`')).toBe('x = 1');
  });
});
