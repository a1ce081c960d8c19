// The share and assign forms refuse what PublishDeck and CreateAssignment refuse (both ask the contract's
// checkDeck and checkAssignment), and in the same words: a field's message in English is the service's
// message, and in Portuguese the text the service's refusal shows as a toast.
import { checkAssignment, checkDeck, type LearningProblem } from '@engram/contracts/shared-decks';
import { afterEach, describe, expect, it } from 'vitest';
import {
  assignmentProblems,
  deckProblems,
  problemText,
  problemTexts,
} from '../../src/features/organization/shared-decks/problems.ts';
import { resolveErrorMessage } from '../../src/lib/errors.ts';
import { setLocale } from '../../src/lib/i18n.ts';

const NOW = Date.parse('2026-05-01T12:00:00Z');
const context = { cardCount: 3, now: NOW };
const assignment = { dueAt: '2026-05-02T12:00:00.000Z', targetKind: 'cards_learned', targetValue: 2 };
const deck = { name: 'Cell biology', description: '', tagId: 'tag-1' };

/** Every rule refusing once. */
const refused: [string, LearningProblem[]][] = [
  ['a blank name and no tag', checkDeck({ ...deck, name: ' ', tagId: '' }).problems ?? []],
  [
    'a long name and description',
    checkDeck({ ...deck, name: 'x'.repeat(65), description: 'x'.repeat(501) }).problems ?? [],
  ],
  [
    'no due date and another kind',
    checkAssignment({ ...assignment, dueAt: '', targetKind: 'reviews' }, context).problems ?? [],
  ],
  [
    'a past due date and too many cards',
    checkAssignment({ ...assignment, dueAt: '2026-04-30T00:00:00Z', targetValue: 4 }, context).problems ?? [],
  ],
  [
    'a retention out of range',
    checkAssignment({ ...assignment, targetKind: 'retention', targetValue: 1 }, context).problems ?? [],
  ],
];

/** What the service's refusal of `problem` shows as a toast (its reason's text, else its message). */
const toast = (problem: LearningProblem) =>
  resolveErrorMessage({ message: problem.message, data: { code: 'BAD_REQUEST', reason: problem.reason } });

afterEach(() => setLocale('en'));

describe('the share and assign forms', () => {
  it('cover every rule with the cases below', () => {
    const rules = new Set(refused.flatMap(([, problems]) => problems.map((problem) => problem.rule)));
    expect([...rules].sort()).toEqual(
      [
        'descriptionTooLong',
        'dueDatePast',
        'dueDateRequired',
        'nameRequired',
        'nameTooLong',
        'retentionRange',
        'tagRequired',
        'targetCards',
        'targetKind',
      ].sort(),
    );
  });

  it.each(refused)('say in English what the service answers for %s', (_what, problems) => {
    expect(problems).not.toEqual([]);
    expect(problemTexts(problems)).toEqual(
      Object.fromEntries(problems.map((problem) => [problem.field, problem.message])),
    );
  });

  it.each(refused)('say in Portuguese what the refusal’s toast says for %s', (_what, problems) => {
    setLocale('pt-BR');
    for (const problem of problems) {
      const text = problemText(problem);
      expect(text, problem.rule).not.toBe(problem.message);
      // A target out of range names this target's bounds; the toast cannot know the deck, so it names both.
      if (problem.reason !== 'TARGET_VALUE_INVALID') expect(text, problem.rule).toBe(toast(problem));
    }
  });

  it('name the deck’s own number of cards and the retention bounds in both languages', () => {
    const [cards] = checkAssignment({ ...assignment, targetValue: 9 }, { ...context, cardCount: 7 }).problems ?? [];
    const [retention] =
      checkAssignment({ ...assignment, targetKind: 'retention', targetValue: 0.2 }, context).problems ?? [];
    expect(cards && problemText(cards)).toBe('The target must be between 1 and 7 cards.');
    setLocale('pt-BR');
    expect(cards && problemText(cards)).toBe('A meta deve ficar entre 1 e 7 cartões.');
    expect(retention && problemText(retention)).toBe('A meta de retenção deve ficar entre 50% e 99%.');
  });
});

describe('the share and assign forms’ problem functions', () => {
  it('name each field PublishDeck would refuse', () => {
    const blank = { ...deck, name: ' ', tagId: '' };
    expect(Object.keys(deckProblems(blank)).sort()).toEqual(['name', 'tagId']);
    expect(deckProblems(blank)).toEqual(problemTexts(checkDeck(blank).problems));
    expect(deckProblems(deck)).toEqual({});
  });

  it('ask for a deck first, then check the target against the chosen deck’s cards', () => {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    expect(assignmentProblems({ ...assignment, dueAt: tomorrow, targetValue: 1, deckId: '' }, undefined)).toEqual({
      deckId: 'Choose a deck.',
    });
    expect(assignmentProblems({ ...assignment, dueAt: tomorrow, targetValue: 5, deckId: 'deck-1' }, 4)).toEqual({
      targetValue: 'The target must be between 1 and 4 cards.',
    });
  });
});
