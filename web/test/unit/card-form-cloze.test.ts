// The card form refuses a cloze text by the rule the cards service saves by (@engram/contracts/cloze), and in
// English says the very words the service answers; in Portuguese, the same in Portuguese.
import { CLOZE_PROBLEMS, type ClozeProblem } from '@engram/contracts/cloze';
import { afterEach, describe, expect, it } from 'vitest';
import { setLocale } from '../../src/lib/i18n.ts';
import { cardProblems } from '../../src/lib/validation.ts';

afterEach(() => setLocale('en'));

const frontError = (front: string) => cardProblems({ type: 'cloze', front, back: '' }).front;
const many = (count: number) => Array.from({ length: count }, (_, i) => `{{c${i + 1}::w${i}}}`).join(' ');

const REFUSED: Record<ClozeProblem, string> = {
  noDeletion: 'The capital of Australia is Canberra.',
  numberZero: 'The capital of Australia is {{c0::Canberra}}.',
  emptyDeletion: 'The capital of Australia is {{c1::}}.',
  tooManyDeletions: many(51),
};

describe('the card form’s cloze check', () => {
  it('refuses {{c0::…}}, an empty deletion, no deletion and more than 50, in the cards service’s words', () => {
    for (const [problem, front] of Object.entries(REFUSED)) {
      expect(frontError(front), front).toBe(CLOZE_PROBLEMS[problem as ClozeProblem]);
    }
  });

  it('takes deletions with hints, in maths and in code, numbered up to 999', () => {
    for (const front of ['{{c1::Canberra::a city}}', '$x = {{c1::\\frac{a}{b}}}$', '`{{c2::let}}`', '{{c999::x}}']) {
      expect(frontError(front), front).toBeUndefined();
    }
  });

  it('says it in Portuguese when the learner reads Portuguese', () => {
    setLocale('pt-BR');
    expect(frontError(REFUSED.numberZero)).toBe(
      'As lacunas são numeradas a partir de 1, como {{c1::resposta}}, não {{c0::resposta}}.',
    );
    expect(frontError(REFUSED.emptyDeletion)).toBe(
      'Uma lacuna precisa de uma resposta a ocultar, como {{c1::resposta}}, não {{c1::}}.',
    );
  });
});
