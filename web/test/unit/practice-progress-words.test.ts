// The session bar says what has been answered and what is left, one answer as one, in both languages.
import { afterEach, describe, expect, it } from 'vitest';
import { progressWords } from '../../src/features/practice/progress-words.ts';
import { setLocale } from '../../src/lib/i18n.ts';

describe('the session bar’s count', () => {
  afterEach(() => setLocale('en'));

  it('names the answers and what is left', () => {
    expect(progressWords(0, 2)).toBe('0 answered · 2 to go');
    expect(progressWords(1, 2)).toBe('1 answered · 2 to go');
    expect(progressWords(6, 9)).toBe('6 answered · 9 to go');
  });

  it('says one answer as one in Portuguese', () => {
    setLocale('pt-BR');
    expect(progressWords(0, 2)).toBe('0 respondidas · faltam 2');
    expect(progressWords(1, 2)).toBe('1 respondida · faltam 2');
    expect(progressWords(6, 9)).toBe('6 respondidas · faltam 9');
  });
});
