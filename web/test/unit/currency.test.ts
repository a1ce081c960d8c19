// The plans are first shown in the currency the visitor most likely pays in, before they choose one: a learner in
// São Paulo reading Portuguese is not offered dollars.
import { describe, expect, it } from 'vitest';
import { currencyFor } from '../../src/entities/billing/currency.ts';

const ALL = ['usd', 'eur', 'brl'];

describe('the currency offered first', () => {
  it('is reais for a reader of Brazilian Portuguese, wherever their browser is set for', () => {
    expect(currencyFor('pt-BR', ALL, ['pt-BR', 'pt'])).toBe('brl');
    expect(currencyFor('pt-BR', ALL, ['en-US'])).toBe('brl');
  });

  it("follows the country of the browser's first language that names one", () => {
    expect(currencyFor('en', ALL, ['en-IE', 'en'])).toBe('eur');
    expect(currencyFor('en', ALL, ['de', 'de-DE'])).toBe('eur');
    expect(currencyFor('en', ALL, ['pt-BR'])).toBe('brl');
    expect(currencyFor('en', ALL, ['en-GB'])).toBe('usd');
    expect(currencyFor('en', ALL, ['en-US'])).toBe('usd');
  });

  it('is dollars when nothing says otherwise, or the first the catalogue has', () => {
    expect(currencyFor('en', ALL, [])).toBe('usd');
    expect(currencyFor('en', ALL, ['en', 'not a language tag'])).toBe('usd');
    expect(currencyFor('pt-BR', ['usd', 'eur'], ['pt-BR'])).toBe('usd');
    expect(currencyFor('en', ['eur'], ['en-US'])).toBe('eur');
  });
});
