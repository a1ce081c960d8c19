// The dashboard names both counts when they differ: the cards, and the review items they make (a reversed
// card is practised both ways, a cloze card once per deletion), in both languages.
import { afterEach, describe, expect, it } from 'vitest';
import { cardsAndItems } from '../../src/features/dashboard/counts.ts';
import { setLocale } from '../../src/lib/i18n.ts';

describe('the collection’s count', () => {
  afterEach(() => setLocale('en'));

  it('names the cards alone when each card is one review item', () => {
    expect(cardsAndItems(12, 12)).toBe('Cards: 12');
  });

  it('names the cards and the review items when they differ', () => {
    expect(cardsAndItems(12, 17)).toBe('12 cards · 17 questions in all');
    expect(cardsAndItems(1, 3)).toBe('1 card · 3 questions in all');
  });

  it('says the same in Portuguese', () => {
    setLocale('pt-BR');
    expect(cardsAndItems(12, 17)).toBe('12 cartões · 17 perguntas ao todo');
    expect(cardsAndItems(1, 3)).toBe('1 cartão · 3 perguntas ao todo');
    expect(cardsAndItems(5, 5)).toBe('Cartões: 5');
  });
});
